// Calls to /api/v1/auth (API.md 12): staff sign-in, the session cookie (HttpOnly: this page never
// reads it; the browser sends it to this origin only), the person's own password and passkeys.
// Passkeys go through @simplewebauthn/browser, served by this service (no third party).
import { fetchJson, Problem } from '../shared/api.js';
import { language, t } from '../shared/i18n.js';
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
} from '../vendor/simplewebauthn-browser/index.js';

/** `body` of an auth call (null for 204/202), or a thrown Problem with the API's problem details. */
export async function auth(method, path, body) {
  const { json } = await fetchJson(`/api/v1/auth${path}`, {
    method,
    headers: {
      accept: 'application/json',
      'accept-language': language(),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    credentials: 'same-origin',
    cache: 'no-store',
  });
  return json;
}

/** The signed-in person (`GET /auth/me`), or null when this browser holds no live session. */
export async function currentPerson() {
  try {
    return await auth('GET', '/me');
  } catch (problem) {
    if (problem instanceof Problem && problem.status === 401) return null;
    throw problem;
  }
}

export const passkeysSupported = () => browserSupportsWebAuthn();

/**
 * A passkey ceremony the person stopped or the browser refused (no authenticator, a timeout):
 * a Problem with the code `passkey_cancelled`, saying so in the page's own words.
 */
function ceremonyProblem() {
  return new Problem({ code: 'passkey_cancelled', detail: t('staff.passkey.cancelled') }, 0);
}

/** Signs in with a discoverable passkey: answers as password sign-in does. */
export async function signInWithPasskey() {
  const options = await auth('POST', '/passkey/options');
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options });
  } catch {
    throw ceremonyProblem();
  }
  return auth('POST', '/passkey/sign-in', { response });
}

/** Registers a passkey for the signed-in person under `name`. */
export async function addPasskey(name) {
  const options = await auth('POST', '/passkeys/options');
  let response;
  try {
    response = await startRegistration({ optionsJSON: options });
  } catch {
    throw ceremonyProblem();
  }
  return auth('POST', '/passkeys', { response, ...(name ? { name } : {}) });
}
