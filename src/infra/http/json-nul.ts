import { type AppError, invalid } from './problems.ts';

/** Where in a parsed JSON value a string (or key) holds U+0000, as a JSON pointer; null if nowhere. */
function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '/' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key.includes('\u0000')) return at;
    const found = nulPath(child, at);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL cannot store U+0000 in text or jsonb: such a string would fail deep in a query as a
 * 500. The JSON parser refuses it up front as a 400 instead. Only bodies whose text holds the
 * escape `\u0000` are walked, so ordinary requests pay one substring scan.
 */
export function nulCharacterError(text: string, parsed: unknown): AppError | null {
  if (!text.includes('\\u0000')) return null;
  const path = nulPath(parsed, '');
  return path ? invalid(path, 'must not contain the NUL character (U+0000)') : null;
}
