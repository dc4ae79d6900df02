import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Session ids, access tokens and operator keys are bearer secrets that can appear in URLs (or in a
 * message); logs keep only a prefix long enough to correlate requests of one session.
 */
export function maskSecrets(text: string): string {
  return text.replace(/\b(cks|rat|ik)_([0-9a-z]{4})[0-9a-z]+/gi, '$1_$2…');
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
