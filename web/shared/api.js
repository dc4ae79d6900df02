// Calls to the public API. An error answer becomes a Problem carrying the RFC 9457 body, so the
// page can show its `detail` and point at the fields named in `errors[].path`. Requests ask for the
// page's language, so the catalogue's names (rooms, rates, extras, taxes) come in it.
import { language } from './i18n.js';

export class Problem extends Error {
  constructor(body, status) {
    super(body.detail ?? body.title ?? String(status));
    this.status = status;
    this.code = body.code;
    this.detail = body.detail;
    this.errors = Array.isArray(body.errors) ? body.errors : [];
    /** A 404 for a path no route serves (see not-found.ts), not for an unknown resource. */
    this.unknownRoute = body.unknownRoute === true;
    /** On a `402 payment_failed` that needs the guest (3-D Secure): see card-payment.js. */
    this.nextAction = body.nextAction ?? null;
  }
}

/**
 * One JSON call to this service: `{ json, response }` of a 2xx answer, else a thrown Problem
 * carrying the RFC 9457 body (`network_error` when nothing came back, `unexpected` for a body that
 * is not JSON). Every page's calls (public, operator, staff sign-in) go through here.
 */
export async function fetchJson(url, init) {
  let response;
  try {
    response = await fetch(url, { referrerPolicy: 'no-referrer', ...init });
  } catch {
    throw new Problem({ code: 'network_error' }, 0);
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) throw new Problem(json ?? { code: 'unexpected' }, response.status);
  return { json, response };
}

export async function api(method, path, { body, headers = {} } = {}) {
  const url = path.startsWith('/') && !path.startsWith('/api/') ? `/api/v1${path}` : path;
  const { json } = await fetchJson(url, {
    method,
    headers: {
      accept: 'application/json',
      'accept-language': language(),
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
    credentials: 'omit',
  });
  return json;
}

/** A random Idempotency-Key: retrying the same request with it can never book twice. */
export function idempotencyKey() {
  return crypto.randomUUID();
}
