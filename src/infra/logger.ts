import pino, { type DestinationStream, type Logger } from 'pino';

const UNRESERVED = /[A-Za-z0-9._~-]/;
const unreservedAt = (hex: string) => UNRESERVED.test(String.fromCharCode(Number.parseInt(hex, 16)));

/** Rounds of decoding before masking: each undoes one layer of encoding; more than this is an attack's. */
const MAX_DECODING_ROUNDS = 8;

/**
 * Decodes percent-encoded unreserved characters (RFC 3986 2.3: `%63` is `c`, the same URL), so
 * `/sessions/%63ks_…` or `cks%5F…` is seen as the id it spells, and repeats until nothing changes
 * (bounded), so a double-encoded `%2563ks_…` (`%25` is `%`) is seen too: a router or proxy that
 * decodes once more would serve it as the session. Other escapes stay as they are: decoding `%2F`
 * or `%20` would make logged URLs ambiguous.
 */
function decodeUnreserved(text: string): string {
  let current = text;
  for (let round = 0; round < MAX_DECODING_ROUNDS && current.includes('%'); round++) {
    const next = current
      // `%25` (`%`) before an escape of an unreserved character, however deeply nested: one layer less.
      .replace(/%25((?:25)*)([0-9a-f]{2})/gi, (encoded, nested: string, hex: string) =>
        unreservedAt(hex) ? `%${nested}${hex}` : encoded,
      )
      .replace(/%([0-9a-f]{2})/gi, (encoded, hex: string) =>
        unreservedAt(hex) ? String.fromCharCode(Number.parseInt(hex, 16)) : encoded,
      );
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * Prefixes of the bearer secrets this service issues or holds: check-in session ids (`cks_`),
 * reservation access tokens (`rat_`), operator keys (`ik_`), staff invitation and reset tokens
 * (`stk_`), webhook signing secrets (`whsec_`),
 * and Stripe secret and restricted keys, should one be pasted into a message.
 */
const SECRET = /(cks|rat|ik|ict|stk|whsec|sk_live|sk_test|rk_live|rk_test)_([0-9a-z]{4})[0-9a-z]+/gi;

/**
 * A secret as masked: from its prefix (`SECRET`'s) to the end of its path segment, query value or
 * word, whatever it holds (`%2F`, `%00`, any other escape or odd character inserted into an id),
 * keeping at most four letters or digits after the prefix to correlate requests.
 */
const SECRET_TO_END = new RegExp(
  `${SECRET.source.slice(0, SECRET.source.indexOf(')_') + 1)}_([0-9a-z]{0,4})[^/?#&\\s"'<>\`]+`,
  'gi',
);

/**
 * Secrets that can appear in URLs or messages; logs keep only a prefix long enough to correlate
 * requests of one session. The match runs on the decoded text and anywhere in it (no word
 * boundary): masking too much in a log costs nothing.
 */
export function maskSecrets(text: string): string {
  return decodeUnreserved(text).replace(SECRET_TO_END, '$1_$2…');
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["idempotency-key"]',
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
      // A secret pasted into a message (or an error text) is masked too, not only request URLs.
      hooks: {
        logMethod(args, method) {
          const masked = args.map((a) => (typeof a === 'string' ? maskSecrets(a) : a));
          method.apply(this, masked as Parameters<typeof method>);
        },
      },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: maskSecrets(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        // An error's text may quote a URL or a secret too (a driver's, a framework's message).
        err: (error: Error) => {
          const serialized = pino.stdSerializers.err(error);
          if (typeof serialized.message === 'string') serialized.message = maskSecrets(serialized.message);
          if (typeof serialized.stack === 'string') serialized.stack = maskSecrets(serialized.stack);
          return serialized;
        },
      },
    },
    destination,
  );
}
