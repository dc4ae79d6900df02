import { sessionHash } from '../../operator-access/session-credential.ts';
import { staffSessionsRepository as sessions } from '../../operator-access/staff-sessions.repository.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { recordOwnAct, type StaffWriteContext } from './staff-context.ts';

/**
 * Ends the session of this cookie secret (no error if it had ended already) and, when it ended one,
 * writes `staff.signed_out` in the same transaction (API.md 12).
 */
export async function signOut(ctx: StaffWriteContext, secret: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const staffId = await sessions.end(tx, sessionHash(secret));
    if (staffId === null) return;
    const account = await accounts.byId(tx, staffId);
    if (account) await recordOwnAct(tx, ctx.audit, account, 'staff.signed_out');
  });
}
