import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Session ids and access tokens are bearer secrets that can appear in URLs; logs keep only a
 * prefix long enough to correlate requests of one session.
 */
export function maskSecrets(text: string): string {
  return text.replace(/\b(cks|rat)_([0-9a-z]{4})[0-9a-z]+/gi, '$1_$2…');
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
