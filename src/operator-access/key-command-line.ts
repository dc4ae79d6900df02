/**
 * `operator-key create | list | revoke` as text in, text out: run by the command line on a
 * database it opened, or by the running embedded service for a command line that asked it over
 * the control channel (infra/control-channel.ts). Acts with every scope on every hotel, audited as
 * `cli`.
 */
import { parseArgs } from 'node:util';
import type { ControlReply } from '../infra/control-channel.ts';
import { AppError } from '../infra/http/problems.ts';
import { SYSTEM_SCOPE } from './audit-trail.ts';
import { createKey } from './commands/create-key.ts';
import { type KeysDeps, rootPrincipal } from './commands/key-grant.ts';
import { listKeys } from './commands/list-keys.ts';
import { revokeKey } from './commands/revoke-key.ts';
import { SCOPES, type Scope } from './scopes.ts';

export const OPERATOR_KEY_USAGE = `usage: npm run operator-key -- create --name NAME --scopes SCOPE[,SCOPE…] [--hotels HOTEL[,HOTEL…]]
       npm run operator-key -- list
       npm run operator-key -- revoke KEY_ID
scopes: ${SCOPES.join(', ')}`;

const csv = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const usage = (message: string): ControlReply => ({
  code: 64,
  stdout: '',
  stderr: `${message}\n${OPERATOR_KEY_USAGE}\n`,
});

/** The arguments' command, or a usage reply (exit 64) before any database is opened. */
export function parseOperatorKeyArgs(args: string[]) {
  try {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      options: { name: { type: 'string' }, scopes: { type: 'string' }, hotels: { type: 'string' } },
    });
    const [command, ...rest] = positionals;
    if (command !== 'create' && command !== 'list' && command !== 'revoke') return usage('unknown command');
    if (command === 'revoke' && rest.length !== 1) return usage('revoke takes one key id');
    const scopes = csv(values.scopes);
    if (command === 'create') {
      const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
      if (unknown.length > 0) return usage(`unknown scope(s): ${unknown.join(', ')}`);
      if (!values.name || scopes.length === 0) return usage('--name and --scopes are required');
    }
    return { command, id: rest[0], name: values.name, scopes: scopes as Scope[], hotels: csv(values.hotels) };
  } catch (error) {
    return usage((error as Error).message);
  }
}

/** Runs one `operator-key` command line: outside any request, so its entries name no request id. */
export async function runOperatorKeyCommand(
  app: Omit<KeysDeps, 'audit'>,
  args: string[],
): Promise<ControlReply> {
  const parsed = parseOperatorKeyArgs(args);
  if ('code' in parsed) return parsed;
  const deps: KeysDeps = { ...app, audit: SYSTEM_SCOPE };
  const cli = rootPrincipal('cli');
  const out: string[] = [];
  try {
    if (parsed.command === 'create') {
      const { key, secret } = await createKey(deps, cli, {
        name: parsed.name as string,
        scopes: parsed.scopes,
        hotelIds: parsed.hotels.length > 0 ? parsed.hotels : null,
      });
      out.push(
        `created operator key ${key.id} (${key.scopes.join(',')}; hotels: ${key.hotelIds?.join(',') ?? 'all'})`,
        'the key (shown only now; store it safely):',
        secret,
      );
    } else if (parsed.command === 'list') {
      for (const key of await listKeys(deps.db, cli)) {
        const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active';
        out.push(
          [
            key.id,
            JSON.stringify(key.name),
            key.scopes.join(','),
            key.hotelIds?.join(',') ?? 'all-hotels',
            key.createdAt.toISOString(),
            state,
          ].join('\t'),
        );
      }
    } else {
      const key = await revokeKey(deps, cli, parsed.id as string);
      out.push(`revoked operator key ${key.id} (${JSON.stringify(key.name)})`);
    }
  } catch (error) {
    if (error instanceof AppError) return { code: 1, stdout: '', stderr: `refused: ${error.message}\n` };
    throw error;
  }
  return { code: 0, stdout: out.map((line) => `${line}\n`).join(''), stderr: '' };
}
