import { generateRegistrationOptions } from '@simplewebauthn/server';
import { CHALLENGE_SECONDS, relyingParty } from '../rules/relying-party.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffPasskeysRepository as passkeys } from '../staff-passkeys.repository.ts';
import { webauthnChallengesRepository as challenges } from '../webauthn-challenges.repository.ts';
import { userHandleOf } from './passkey-view.ts';
import type { StaffContext } from './staff-context.ts';

/**
 * Starts registering a passkey for the signed-in person (API.md 12): creation options for a
 * discoverable credential, excluding the passkeys they hold, with a challenge stored for five minutes.
 */
export async function passkeyRegistrationOptions(ctx: StaffContext, staffId: number) {
  const account = await accounts.byId(ctx.db, staffId);
  if (!account) throw new Error('signed-in account not found');
  const held = await passkeys.ofStaff(ctx.db, staffId);
  const rp = relyingParty(ctx.config.publicBaseUrl);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.email,
    userDisplayName: account.name,
    userID: userHandleOf(account.publicId),
    timeout: CHALLENGE_SECONDS * 1000,
    attestationType: 'none',
    excludeCredentials: held.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await challenges.issue(ctx.db, {
    challenge: options.challenge,
    purpose: 'registration',
    staffId,
    expiresAt: new Date(ctx.clock.now().getTime() + CHALLENGE_SECONDS * 1000),
  });
  return options;
}
