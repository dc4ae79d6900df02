import { AppError, invalid } from '../../infra/http/problems.ts';
import { tellStaff } from '../../messages/staff-outbox.ts';
import { staffSessionsRepository as sessions } from '../../operator-access/staff-sessions.repository.ts';
import { hashPassword, verifyPassword } from '../password-hash.ts';
import { passwordWeakness } from '../rules/password-strength.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffTokensRepository as tokens } from '../staff-tokens.repository.ts';
import {
  issueLink,
  type StaffContext,
  signedInView,
  startSession,
  TOKEN_PATTERN,
  tokenHash,
} from './staff-context.ts';

/** A password's strength checked (`400` at `path`), then hashed: never logged, never repeated. */
async function strongHash(password: string, context: string[], path: string): Promise<string> {
  const weakness = passwordWeakness(password, context);
  if (weakness) throw invalid(path, weakness);
  return hashPassword(password);
}

const linkRefused = () =>
  new AppError('not_found', 'This link is unknown, used or expired; ask for a new one.');

/**
 * Accepts an invitation (API.md 12): the token used once, the password set, the account `active`,
 * and a session opened, in one transaction. A weak password changes nothing (the token stays good).
 */
export async function acceptInvitation(ctx: StaffContext, token: string, password: string) {
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
    return { secret, answer: signedInView(active ?? account) };
  });
}

/** Changes one's own password (signed in): the current one checked, every other session ended. */
export async function changePassword(
  ctx: StaffContext,
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
  });
}

/**
 * Asks for a reset link (API.md 12): always the same answer; only an active account gets the
 * `staff_password_reset` e-mail, with a one-time link valid one hour.
 */
export async function requestPasswordReset(ctx: StaffContext, email: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const account = await accounts.byEmail(tx, email);
    if (!account || account.status !== 'active') return;
    const link = await issueLink(tx, ctx, account.id, 'password_reset');
    await tellStaff(tx, ctx.encryptor, {
      kind: 'staff_password_reset',
      to: account.email,
      name: account.name,
      language: account.language,
      link,
    });
  });
}

/** Sets a new password with a reset token: used once, every session of the person ended. */
export async function resetPassword(ctx: StaffContext, token: string, password: string): Promise<void> {
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
  });
}
