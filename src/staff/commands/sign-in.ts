import { hashSecret } from '../../infra/crypto/tokens.ts';
import { AppError } from '../../infra/http/problems.ts';
import { windowLimitExceeded } from '../../infra/http/rate-limit-headers.ts';
import { decoyHash, verifyPassword } from '../password-hash.ts';
import { signInFailuresRepository as failures } from '../sign-in-failures.repository.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { recordOwnAct, type StaffWriteContext, signedInView, startSession } from './staff-context.ts';

/** API.md 12: 10 failures for one e-mail within 15 minutes lock it until the window passes. */
export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

const emailHash = (email: string) => hashSecret(`staff-sign-in\u0000${email.toLowerCase()}`);

/** The one answer of every failed sign-in: the same for an unknown e-mail, a wrong password, an invited or disabled account. */
export const signInFailed = () =>
  new AppError('sign_in_failed', 'The e-mail or the password is wrong, or this account cannot sign in.');

function lockedOut(counted: { failures: number; windowStart: Date }, now: Date): AppError | null {
  return windowLimitExceeded(
    'staff-sign-in',
    SIGN_IN_FAILURE_LIMIT - 1,
    SIGN_IN_WINDOW_SECONDS,
    counted,
    now,
    (s) => `Too many failed sign-ins for this e-mail; retry in ${s} s.`,
  );
}

/**
 * Signs a person in with e-mail and password (API.md 12). Every failure reads the same and costs
 * one Argon2id verification (against a decoy hash when there is no password to check), so neither
 * the answer nor its time tells whether the e-mail has an account. The 11th attempt within a
 * window of 10 failures is `429`, whatever the password, until the window passes.
 *
 * The attempt takes its place in the window before the password is checked (one atomic upsert),
 * and a success gives it back: parallel guesses each see the ones before them, so no more than 10
 * passwords are ever checked in a window, however many arrive at once on however many processes.
 */
export async function signIn(ctx: StaffWriteContext, email: string, password: string) {
  const now = ctx.clock.now();
  const hash = emailHash(email);
  const counted = await failures.count(ctx.db, hash, now, SIGN_IN_WINDOW_SECONDS);
  const locked = lockedOut({ failures: counted.failures - 1, windowStart: counted.windowStart }, now);
  if (locked) throw locked;
  const account = await accounts.byEmail(ctx.db, email);
  const stored = account?.passwordHash ?? (await decoyHash());
  const matches = await verifyPassword(stored, password);
  if (!account || !account.passwordHash || !matches || account.status !== 'active') throw signInFailed();
  await failures.forgive(ctx.db, hash, counted.windowStart);
  // A sign-in is a security event a hotel expects in its trail: written with the session it opens.
  const secret = await ctx.db.transaction(async (tx) => {
    await recordOwnAct(tx, ctx.audit, account, 'staff.signed_in', { method: 'password' });
    return startSession(tx, ctx, account.id);
  });
  return { secret, answer: signedInView(account) };
}
