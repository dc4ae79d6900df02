// Verifies a check-in session's signature the way any third party would: fetch the signed session,
// then check its compact JWS (EdDSA / Ed25519) against the service's public keys (JWKS).
//
//   node examples/verify-session.mjs <base-url> <session-id> [issuer]
//
// <base-url> is where the service answers (e.g. http://127.0.0.1:3000); [issuer] is its
// PUBLIC_BASE_URL when that differs. Prints "<session id> <status> <completedAt>" and exits 0 when the
// signature is valid; prints the reason on stderr and exits 1 otherwise.
import { createRemoteJWKSet, jwtVerify } from 'jose';

const [baseArg, sessionId, issuerArg] = process.argv.slice(2);
if (!baseArg || !sessionId) {
  console.error('usage: node examples/verify-session.mjs <base-url> <session-id> [issuer]');
  process.exit(2);
}
const base = baseArg.replace(/\/$/, '');
const issuer = (issuerArg ?? base).replace(/\/$/, '');

try {
  const response = await fetch(`${base}/api/v1/checkin/sessions/${encodeURIComponent(sessionId)}`);
  const body = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${body.code}: ${body.detail}`);

  const jwks = createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`));
  const { payload } = await jwtVerify(body.signature, jwks, { issuer, algorithms: ['EdDSA'] });
  // The signed copy is the one to trust; it must also be the session the service answered with.
  if (payload.sub !== sessionId) throw new Error(`signed for ${payload.sub}, not ${sessionId}`);
  console.log(payload.sub, payload.session.status, payload.session.completedAt);
} catch (error) {
  console.error(`not verified: ${error.message}`);
  process.exit(1);
}
