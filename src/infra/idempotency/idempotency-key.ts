import { Type } from '@sinclair/typebox';

/**
 * The one length rule of `Idempotency-Key` (API.md section 1: 1–255 characters), for every route:
 * the header's value as sent, quotes included when it is a quoted string. Route schemas, the
 * idempotency plugin and the OpenAPI document all take it from here.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const DESCRIPTION =
  `Makes a retry safe: 1–${IDEMPOTENCY_KEY_MAX_LENGTH} characters, bare (\`k-123\`) or as a quoted ` +
  'structured-field string (`"k-123"`, the same key; the quotes count towards the length). The same ' +
  'key and body within 24 h replays the first completed answer.';

/** The header's schema: in a route's `headers` and, for routes without one, in the OpenAPI document. */
export const IdempotencyKeyHeader = Type.String({
  minLength: 1,
  maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
  description: DESCRIPTION,
});

/**
 * The `Idempotency-Key` header's value. The IETF draft (draft-ietf-httpapi-idempotency-key-header)
 * makes it a structured-field String, `"8e03978e-40d5"`, where the quotes are syntax, not part of
 * the key; most clients (Stripe-style) send the bare token. Both are accepted and name the same
 * key: a value that starts with `"` must be a valid sf-string (printable ASCII, `\"` and `\\` the
 * only escapes) and is unquoted. Returns the key, or null when the value is not acceptable.
 */
export function parseIdempotencyKey(value: string): string | null {
  if (value.length < 1 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH) return null;
  if (!value.startsWith('"')) return value;
  const match = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(value);
  const key = match ? (match[1] ?? '').replace(/\\(["\\])/g, '$1') : '';
  return key.length >= 1 ? key : null;
}
