import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers to the n-th request (0-based): a status, or `hang` (never answers). */
export type Answer = number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 recording every request; `answer` decides each reply. */
export async function startReceiver(
  answer: (n: number, body: string) => Answer = () => 200,
): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const n = received.length;
      received.push({ headers: request.headers, body, at: Date.now() });
      const reply = answer(n, body);
      if (reply === 'hang') return;
      response.writeHead(reply, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Checks `Innkeep-Signature` as a receiver would, written from API.md 8.2 alone (not the service's
 * code): HMAC-SHA256 of "<t>.<raw body>" under the secret, compared in constant time, `t` recent.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  toleranceS = 300,
): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceS || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
