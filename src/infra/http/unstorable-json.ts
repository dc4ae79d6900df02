import { type AppError, invalid } from './problems.ts';

/** A key of a parsed body as one JSON-pointer segment (RFC 6901: `~` and `/` escaped). */
const segment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Why a string cannot be stored, or null if it can. */
function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  // Node 20's String.prototype.isWellFormed (ES2024; not in this project's ES2023 lib types).
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) {
    return 'must not contain an unpaired UTF-16 surrogate (\\uD800-\\uDFFF)';
  }
  return null;
}

/** The first refused value or key in a parsed JSON value, depth first; null if there is none. */
function firstRefusal(
  value: unknown,
  path: string,
  parentKey: string | null,
): { path: string; message: string } | null {
  if (typeof value === 'string') {
    const message = unstorable(value);
    return message ? { path: path || '/', message } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}/${segment(key)}`;
    const keyProblem = unstorable(key);
    if (keyProblem) return { path: at, message: `the key ${keyProblem}` };
    // What secure-json-parse refuses, named: an object assigned or merged with such keys could
    // change the prototype of every object.
    if (key === '__proto__') return { path: at, message: 'the key __proto__ is not allowed' };
    if (key === 'prototype' && parentKey === 'constructor') {
      return { path: at, message: 'the key prototype inside constructor is not allowed' };
    }
    const found = firstRefusal(child, at, Array.isArray(value) ? null : key);
    if (found) return found;
  }
  return null;
}

/**
 * The one check of a parsed JSON body that JSON.parse does not make, so such input is a 400 with
 * its path instead of a 500 deep in a query or a misleading "not valid JSON":
 * - text PostgreSQL cannot store: U+0000 (in text or jsonb) and unpaired UTF-16 surrogates (jsonb
 *   refuses them), in any string or key;
 * - the prototype-polluting keys `__proto__` and `constructor.prototype`.
 * Each of these can only reach the parsed value through a `\u` escape or by spelling the key out
 * (the body is decoded as UTF-8, which has no surrogates; JSON forbids a raw U+0000 in a string),
 * so bodies without them are not walked.
 */
export function unstorableJsonError(text: string, parsed: unknown): AppError | null {
  if (!text.includes('\\u') && !text.includes('__proto__') && !text.includes('constructor')) return null;
  const found = firstRefusal(parsed, '', null);
  return found ? invalid(found.path, found.message) : null;
}
