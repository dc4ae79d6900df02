import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { CHALLENGE_SECONDS, relyingParty } from '../rules/relying-party.ts';
import { webauthnChallengesRepository as challenges } from '../webauthn-challenges.repository.ts';
import type { StaffContext } from './staff-context.ts';

/**
 * Starts a passkey sign-in (API.md 12): request options for a discoverable credential (no
 * `allowCredentials`, so nothing tells which accounts exist), `userVerification: "preferred"`,
 * with a challenge stored for five minutes.
 */
export async function passkeySignInOptions(ctx: StaffContext) {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx.config.publicBaseUrl).id,
    userVerification: 'preferred',
    timeout: CHALLENGE_SECONDS * 1000,
  });
  await challenges.issue(ctx.db, {
    challenge: options.challenge,
    purpose: 'authentication',
    staffId: null,
    expiresAt: new Date(ctx.clock.now().getTime() + CHALLENGE_SECONDS * 1000),
  });
  return options;
}
