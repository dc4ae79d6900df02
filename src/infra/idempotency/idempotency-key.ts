/**
 * The `Idempotency-Key` header's value. The IETF draft (draft-ietf-httpapi-idempotency-key-header)
 * makes it a structured-field String, `"8e03978e-40d5"`, where the quotes are syntax, not part of
 * the key; most clients (Stripe-style) send the bare token. Both are accepted and name the same
 * key: a value that starts with `"` must be a valid sf-string (printable ASCII, `\"` and `\\` the
 * only escapes) and is unquoted. Returns the key, or null when the value is not acceptable.
 */
export function parseIdempotencyKey(value: string): string | null {
  let key = value;
  if (value.startsWith('"')) {
    const match = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(value);
    if (!match) return null;
    key = (match[1] ?? '').replace(/\\(["\\])/g, '$1');
  }
  return key.length >= 1 && key.length <= 255 ? key : null;
}
