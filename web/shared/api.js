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

export async function api(method, path, { body, headers = {} } = {}) {
  let response;
  try {
    response = await fetch(path.startsWith('/') && !path.startsWith('/api/') ? `/api/v1${path}` : path, {
      method,
      headers: {
        accept: 'application/json',
        'accept-language': language(),
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
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
  return json;
}

/** A random Idempotency-Key: retrying the same request with it can never book twice. */
export function idempotencyKey() {
  return crypto.randomUUID();
}
