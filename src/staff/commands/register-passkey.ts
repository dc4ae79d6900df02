import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { verifyRegistrationResponse } from '@simplewebauthn/server';
import { randomToken } from '../../infra/crypto/tokens.ts';
import { invalid } from '../../infra/http/problems.ts';
import { recordAudit } from '../../operator-access/audit-trail.ts';
import { challengeOf, relyingParty } from '../rules/relying-party.ts';
import { staffAccountsRepository as accounts } from '../staff-accounts.repository.ts';
import { staffPasskeysRepository as passkeys } from '../staff-passkeys.repository.ts';
import { webauthnChallengesRepository as challenges } from '../webauthn-challenges.repository.ts';
import { passkeyView } from './passkey-view.ts';
import type { StaffWriteContext } from './staff-context.ts';

const refused = (message: string) => invalid('/response', message);

/**
 * Registers a passkey for the signed-in person (API.md 12). The response must answer a live
 * registration challenge issued to them, which it uses up first (its own statement, so a refused
 * response spends it too and two uses cannot both win); then the library checks origin, relying
 * party, challenge and attestation. Every refusal is `400` at `/response` and stores nothing.
 */
export async function registerPasskey(
  ctx: StaffWriteContext,
  staffId: number,
  body: { response: RegistrationResponseJSON; name?: string },
) {
  const now = ctx.clock.now();
  const challenge = challengeOf(body.response.response.clientDataJSON);
  if (!challenge || !(await challenges.consume(ctx.db, { challenge, purpose: 'registration', staffId, now })))
    throw refused(
      'answers no registration challenge of yours that is still open (each is good once, for 5 minutes): ask for new options',
    );
  const rp = relyingParty(ctx.config.publicBaseUrl);
  let registration: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    const verified = await verifyRegistrationResponse({
      response: body.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    registration = verified.verified ? verified.registrationInfo : undefined;
  } catch (error) {
    throw refused(`is not a valid passkey registration: ${(error as Error).message}`);
  }
  if (!registration) throw refused('is not a valid passkey registration');
  const { credential } = registration;
  return ctx.db.transaction(async (tx) => {
    const account = await accounts.byId(tx, staffId);
    if (!account) throw new Error('signed-in account not found');
    const publicId = randomToken('pk_', 12);
    const added = await passkeys.insert(tx, {
      publicId,
      staffId,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? body.response.response.transports ?? [],
      name: body.name?.trim() || 'Passkey',
      now,
    });
    if (!added) throw refused('holds a passkey that is registered already');
    await recordAudit(tx, ctx.audit, {
      actor: { type: 'staff', id: account.publicId, name: account.name },
      hotelIds: account.hotelIds,
      action: 'staff.passkey_added',
      target: { type: 'staff', id: account.publicId },
      details: { passkeyId: publicId },
    });
    const stored = await passkeys.byPublicId(tx, publicId);
    if (!stored) throw new Error('registered passkey not found');
    return passkeyView(stored);
  });
}
