import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Decodes percent-encoded unreserved characters (RFC 3986 2.3: `%63` is `c`, the same URL), so
 * `/sessions/%63ks_…` or `cks%5F…` is seen as the id it spells. Other escapes stay as they are:
 * decoding `%2F` or `%20` would make logged URLs ambiguous.
 */
function decodeUnreserved(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (encoded, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(char) ? char : encoded;
  });
}

/**
 * Session ids, access tokens and operator keys are bearer secrets that can appear in URLs; logs keep only a
 * prefix long enough to correlate requests of one session. The match runs on the decoded text
 * and anywhere in it (no word boundary): masking too much in a log costs nothing.
 */
export function maskSecrets(text: string): string {
  return decodeUnreserved(text).replace(/(cks|rat|ik)_([0-9a-z]{4})[0-9a-z]+/gi, '$1_$2…');
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
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
