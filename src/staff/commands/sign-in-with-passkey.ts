import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { AppError } from '../../infra/http/problems.ts';
import { challengeOf, relyingParty } from '../rules/relying-party.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffPasskeysRepository as passkeys } from '../staff-passkeys.repository.ts';
import { webauthnChallengesRepository as challenges } from '../webauthn-challenges.repository.ts';
import { userHandleOf } from './passkey-view.ts';
import { recordOwnAct, type StaffWriteContext, signedInView, startSession } from './staff-context.ts';

/** The one answer of every refused passkey sign-in: it never tells which check failed. */
const passkeyRefused = () =>
  new AppError(
    'sign_in_failed',
    'This passkey could not sign you in: it is unknown, its account cannot sign in, or the answer is not valid for a sign-in started here in the last 5 minutes.',
  );

/**
 * Signs a person in with a passkey (API.md 12), answered as a password sign-in. The response must
 * answer a live sign-in challenge, which it uses up first (its own statement: a refused response
 * spends it too, and of two uses one wins); then it must be of a known passkey of an active
 * account, signed for this origin and relying party, with a signature counter that moved on
 * (a cloned authenticator's replays are refused). Every refusal is the same `401 sign_in_failed`.
 */
export async function signInWithPasskey(ctx: StaffWriteContext, response: AuthenticationResponseJSON) {
  const now = ctx.clock.now();
  const challenge = challengeOf(response.response.clientDataJSON);
  if (
    !challenge ||
    !(await challenges.consume(ctx.db, { challenge, purpose: 'authentication', staffId: null, now }))
  )
    throw passkeyRefused();
  const passkey = await passkeys.byCredentialId(ctx.db, response.id);
  if (!passkey) throw passkeyRefused();
  const account = await accounts.byId(ctx.db, passkey.staffId);
  if (account?.status !== 'active') throw passkeyRefused();
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== Buffer.from(userHandleOf(account.publicId)).toString('base64url'))
    throw passkeyRefused();
  const rp = relyingParty(ctx.config.publicBaseUrl);
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
      },
    });
    if (!verified.verified) throw passkeyRefused();
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    throw passkeyRefused();
  }
  const secret = await ctx.db.transaction(async (tx) => {
    if (!(await passkeys.recordUse(tx, passkey.id, passkey.counter, newCounter, now))) throw passkeyRefused();
    await recordOwnAct(tx, ctx.audit, account, 'staff.signed_in', {
      method: 'passkey',
      passkeyId: passkey.publicId,
    });
    return startSession(tx, ctx, account.id);
  });
  return { secret, answer: signedInView(account) };
}
