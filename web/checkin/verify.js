// Checks a signed check-in session in the browser: the compact JWS against the service's JWKS
// with WebCrypto Ed25519, and that what it signs is the session the page shows.

function base64urlBytes(text) {
  const b64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function base64urlJson(text) {
  return JSON.parse(new TextDecoder().decode(base64urlBytes(text)));
}

/** Same JSON value regardless of key order (the signed payload and the body are serialised apart). */
function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key in b && sameJson(a[key], b[key]));
}

/**
 * `{ status: 'verified', kid }`, `{ status: 'failed', reason }` or `{ status: 'unsupported' }`
 * (a browser without Ed25519 in WebCrypto).
 */
export async function verifySignedSession(signed) {
  if (!globalThis.crypto?.subtle) return { status: 'unsupported' };
  const parts = String(signed.signature ?? '').split('.');
  if (parts.length !== 3) return { status: 'failed', reason: 'malformed' };
  const [header64, payload64, signature64] = parts;
  let header;
  let payload;
  try {
    header = base64urlJson(header64);
    payload = base64urlJson(payload64);
  } catch {
    return { status: 'failed', reason: 'malformed' };
  }
  if (header.alg !== 'EdDSA') return { status: 'failed', reason: 'algorithm' };
  const jwks = await (await fetch('/.well-known/jwks.json', { credentials: 'omit' })).json();
  const jwk = jwks.keys?.find((key) => key.kid === header.kid);
  if (!jwk) return { status: 'failed', reason: 'unknownKey' };
  let key;
  try {
    key = await crypto.subtle.importKey(
      'jwk',
      { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
      { name: 'Ed25519' },
      false,
      ['verify'],
    );
  } catch {
    return { status: 'unsupported' };
  }
  const valid = await crypto.subtle.verify(
    { name: 'Ed25519' },
    key,
    base64urlBytes(signature64),
    new TextEncoder().encode(`${header64}.${payload64}`),
  );
  if (!valid) return { status: 'failed', reason: 'signature' };
  if (payload.sub !== signed.session.id || !sameJson(payload.session, signed.session)) {
    return { status: 'failed', reason: 'mismatch' };
  }
  if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now())
    return { status: 'failed', reason: 'expired' };
  return { status: 'verified', kid: header.kid };
}
