import { invalid } from '../../infra/http/problems.ts';
import { hashPassword } from '../password-hash.ts';
import { passwordWeakness } from '../rules/password-strength.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffTokensRepository as tokens } from '../staff-tokens.repository.ts';
import { linkRefused } from './password-setting.ts';
import {
  recordOwnAct,
  type StaffWriteContext,
  signedInView,
  startSession,
  TOKEN_PATTERN,
  tokenHash,
} from './staff-context.ts';

/**
 * Accepts an invitation (API.md 12): the token used once, the password set, the account `active`,
 * and a session opened, in one transaction. A weak password changes nothing (the token stays good).
 */
export async function acceptInvitation(ctx: StaffWriteContext, token: string, password: string) {
  if (!TOKEN_PATTERN.test(token)) throw linkRefused();
  // The strength is judged before the token is spent, without the person's details (unknown yet);
  // then again with them, inside the transaction, which a refusal rolls back.
  if (passwordWeakness(password)) throw invalid('/password', passwordWeakness(password) as string);
  const hash = await hashPassword(password);
  return ctx.db.transaction(async (tx) => {
    const staffId = await tokens.use(tx, tokenHash(token), 'invitation', ctx.clock.now());
    if (staffId === null) throw linkRefused();
    const account = await accounts.byId(tx, staffId, { forUpdate: true });
    if (!account || account.status !== 'invited') throw linkRefused();
    const weakness = passwordWeakness(password, [account.email, account.name]);
    if (weakness) throw invalid('/password', weakness);
    await accounts.update(tx, staffId, { status: 'active', passwordHash: hash }, ctx.clock.now());
    const secret = await startSession(tx, ctx, staffId);
    const active = await accounts.byId(tx, staffId);
    await recordOwnAct(tx, ctx.audit, account, 'staff.invitation_accepted', { signedIn: true });
    return { secret, answer: signedInView(active ?? account) };
  });
}
