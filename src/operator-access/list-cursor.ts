import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalid } from '../infra/http/problems.ts';

/** Bytes of HMAC-SHA256 kept in a cursor: 128 bits, far beyond guessing. */
const TAG_BYTES = 16;

export interface CursorCodec<T> {
  encode(value: T): string;
  /** The value of a cursor this codec issued; anything else (edited, truncated, foreign) is a `400`. */
  decode(cursor: string, path: string): T;
}

/**
 * Opaque, tamper-proof page cursors: `base64url(JSON) "." base64url(HMAC)`. The HMAC is keyed by a
 * deployment secret and labelled with `purpose`, so a cursor of one list is never accepted by
 * another. `check` validates the decoded shape (a signed cursor of an older format is refused too).
 */
export function createCursorCodec<T>(
  secret: Buffer,
  purpose: string,
  check: (value: unknown) => value is T,
): CursorCodec<T> {
  const tag = (body: string) =>
    createHmac('sha256', secret).update(`${purpose}\u0000${body}`).digest().subarray(0, TAG_BYTES);
  return {
    encode(value) {
      const body = Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${body}.${tag(body).toString('base64url')}`;
    },
    decode(cursor, path) {
      const [body, mac, extra] = cursor.split('.');
      if (body && mac && extra === undefined) {
        const given = Buffer.from(mac, 'base64url');
        if (given.length === TAG_BYTES && timingSafeEqual(given, tag(body))) {
          try {
            const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
            if (check(value)) return value;
          } catch {
            // falls through to the 400 below
          }
        }
      }
      throw invalid(path, 'is not a cursor this endpoint issued for this query');
    },
  };
}

const memo = new WeakMap<(label: string) => Buffer, Map<string, CursorCodec<unknown>>>();

/**
 * The codec of one list for one app, made once: its HMAC key is the deployment's operator-key HMAC
 * applied to `innkeep/<purpose>-cursor/v1`, a label that is never a key (keys start `ik_`), so a
 * secret of its own derived from DATA_ENCRYPTION_KEY, the same in every process.
 */
export function listCursorCodec<T>(
  hasher: (label: string) => Buffer,
  purpose: string,
  check: (value: unknown) => value is T,
): CursorCodec<T> {
  let codecs = memo.get(hasher);
  if (!codecs) {
    codecs = new Map();
    memo.set(hasher, codecs);
  }
  let codec = codecs.get(purpose) as CursorCodec<T> | undefined;
  if (!codec) {
    codec = createCursorCodec(hasher(`innkeep/${purpose}-cursor/v1`), purpose, check);
    codecs.set(purpose, codec as CursorCodec<unknown>);
  }
  return codec;
}

/** What every list's cursor holds: its format version, the query's filters and where the page ended. */
export interface ListCursorState {
  v: 1;
  filters: Record<string, string>;
  after: [string, string];
}

/**
 * The shape check shared by the lists' cursors: version 1, filters named only from `filterNames`
 * with string values, and `after` a pair of strings each accepted by `position` (the list's sort
 * key and id). A list adds its own fields' checks beside it.
 */
export function isListCursorState(
  value: unknown,
  filterNames: readonly string[],
  position: readonly [(key: string) => boolean, (id: string) => boolean],
): value is ListCursorState {
  const c = value as ListCursorState;
  return (
    typeof c === 'object' &&
    c !== null &&
    c.v === 1 &&
    typeof c.filters === 'object' &&
    c.filters !== null &&
    Object.entries(c.filters).every(([k, v]) => filterNames.includes(k) && typeof v === 'string') &&
    Array.isArray(c.after) &&
    c.after.length === 2 &&
    typeof c.after[0] === 'string' &&
    position[0](c.after[0]) &&
    typeof c.after[1] === 'string' &&
    position[1](c.after[1])
  );
}
