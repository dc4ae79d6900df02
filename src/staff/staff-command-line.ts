/**
 * `staff invite` as text in, text out (API.md 12): run by the command line on a database it
 * opened, or by the running embedded service for a command line that asked it over the control
 * channel. Invites with every right (the first owner, before any mail is configured), audited as
 * `cli`, and prints the invitation link once. The link is also queued as the invitation e-mail.
 */
import { parseArgs } from 'node:util';
import type { ControlReply } from '../infra/control-channel.ts';
import { AppError } from '../infra/http/problems.ts';
import { LANGUAGES, type Language } from '../messages/message-kinds.ts';
import { SYSTEM_SCOPE } from '../operator-access/audit-trail.ts';
import { ROLES, type Role } from '../operator-access/roles.ts';
import { SCOPES } from '../operator-access/scopes.ts';
import { inviteStaff } from './commands/invite-staff.ts';
import type { StaffContext, StaffWriteContext } from './commands/staff-context.ts';

export const STAFF_USAGE = `usage: npm run staff -- invite --email EMAIL --name NAME --role ROLE [--hotels HOTEL[,HOTEL…]] [--language en|es|pt]
roles: ${ROLES.join(', ')}`;

const usage = (message: string): ControlReply => ({
  code: 64,
  stdout: '',
  stderr: `${message}\n${STAFF_USAGE}\n`,
});

/** The arguments' invitation, or a usage reply (exit 64) before any database is opened. */
export function parseStaffArgs(args: string[]) {
  try {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string' },
        hotels: { type: 'string' },
        language: { type: 'string' },
      },
    });
    if (positionals.length !== 1 || positionals[0] !== 'invite') return usage('unknown command');
    if (!values.email || !values.name || !values.role)
      return usage('--email, --name and --role are required');
    if (!(ROLES as readonly string[]).includes(values.role)) return usage(`unknown role: ${values.role}`);
    const language = values.language ?? 'en';
    if (!(LANGUAGES as readonly string[]).includes(language)) return usage(`unknown language: ${language}`);
    if (!/^[^\s@]+@[^\s@]+$/.test(values.email) || values.email.length > 254)
      return usage('--email is not an address');
    const hotels = (values.hotels ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    return {
      email: values.email,
      name: values.name,
      role: values.role as Role,
      hotelIds: hotels.length > 0 ? hotels : undefined,
      language: language as Language,
    };
  } catch (error) {
    return usage((error as Error).message);
  }
}

/** Runs one `staff` command line: outside any request, so its entries name no request id. */
export async function runStaffCommand(app: StaffContext, args: string[]): Promise<ControlReply> {
  const ctx: StaffWriteContext = { ...app, audit: SYSTEM_SCOPE };
  const parsed = parseStaffArgs(args);
  if ('code' in parsed) return parsed;
  if (parsed.name.length > 100) return usage('--name is longer than 100 characters');
  try {
    const { account, link } = await inviteStaff(
      ctx,
      { id: 'cli', name: 'Innkeep', scopes: [...SCOPES], hotelIds: null },
      parsed,
    );
    return {
      code: 0,
      stdout: [
        `invited ${account.id} ${account.email} as ${account.role} (hotels: ${account.hotelIds?.join(',') ?? 'all'})`,
        'the invitation link (shown only now; valid 72 hours, once):',
        link,
        '',
      ].join('\n'),
      stderr: '',
    };
  } catch (error) {
    if (error instanceof AppError) {
      const where = error.errors?.map((e) => ` ${e.path}: ${e.message}`).join(';') ?? '';
      return { code: 1, stdout: '', stderr: `refused: ${error.message}${where}\n` };
    }
    throw error;
  }
}
