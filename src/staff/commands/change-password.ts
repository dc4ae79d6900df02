import { invalid } from '../../infra/http/problems.ts';
import { staffSessionsRepository as sessions } from '../../operator-access/staff-sessions.repository.ts';
import { verifyPassword } from '../password-hash.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { strongHash } from './password-setting.ts';
import { recordOwnAct, type StaffWriteContext } from './staff-context.ts';

/** Changes one's own password (signed in): the current one checked, every other session ended. */
export async function changePassword(
  ctx: StaffWriteContext,
  staffId: number,
  keepSession: Buffer,
  body: { currentPassword: string; newPassword: string },
): Promise<void> {
  const account = await accounts.byId(ctx.db, staffId);
  if (!account?.passwordHash || !(await verifyPassword(account.passwordHash, body.currentPassword))) {
    throw invalid('/currentPassword', 'is not your current password');
  }
  const hash = await strongHash(body.newPassword, [account.email, account.name], '/newPassword');
  await ctx.db.transaction(async (tx) => {
    await accounts.update(tx, staffId, { passwordHash: hash }, ctx.clock.now());
    await sessions.endAllOf(tx, staffId, keepSession);
    await recordOwnAct(tx, ctx.audit, account, 'staff.password_changed');
  });
}
