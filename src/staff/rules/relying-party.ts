/** The WebAuthn relying party (API.md 12): its id is the host of `PUBLIC_BASE_URL`, its origin that URL's origin. */
export function relyingParty(publicBaseUrl: string): { id: string; origin: string; name: string } {
  const url = new URL(publicBaseUrl);
  return { id: url.hostname, origin: url.origin, name: 'Innkeep' };
}

/** How long a WebAuthn challenge may be answered (API.md 12: five minutes). */
export const CHALLENGE_SECONDS = 5 * 60;

/**
 * The challenge a response answers, read from its client data (base64url JSON), or null when the
 * client data is not such JSON. It only picks which stored challenge to use up: the library then
 * verifies the response against it.
 */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    if (typeof data !== 'object' || data === null) return null;
    const challenge = (data as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,200}$/.test(challenge) ? challenge : null;
  } catch {
    return null;
  }
}
