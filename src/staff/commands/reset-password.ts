import { invalid } from '../../infra/http/problems.ts';
import { staffSessionsRepository as sessions } from '../../operator-access/staff-sessions.repository.ts';
import { hashPassword } from '../password-hash.ts';
import { passwordWeakness } from '../rules/password-strength.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffTokensRepository as tokens } from '../staff-tokens.repository.ts';
import { linkRefused } from './password-setting.ts';
import { recordOwnAct, type StaffWriteContext, TOKEN_PATTERN, tokenHash } from './staff-context.ts';

/** Sets a new password with a reset token: used once, every session of the person ended. */
export async function resetPassword(ctx: StaffWriteContext, token: string, password: string): Promise<void> {
  if (!TOKEN_PATTERN.test(token)) throw linkRefused();
  if (passwordWeakness(password)) throw invalid('/password', passwordWeakness(password) as string);
  const hash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    const staffId = await tokens.use(tx, tokenHash(token), 'password_reset', ctx.clock.now());
    if (staffId === null) throw linkRefused();
    const account = await accounts.byId(tx, staffId, { forUpdate: true });
    if (!account || account.status !== 'active') throw linkRefused();
    const weakness = passwordWeakness(password, [account.email, account.name]);
    if (weakness) throw invalid('/password', weakness);
    await accounts.update(tx, staffId, { passwordHash: hash }, ctx.clock.now());
    await sessions.endAllOf(tx, staffId);
    await recordOwnAct(tx, ctx.audit, account, 'staff.password_reset');
  });
}
