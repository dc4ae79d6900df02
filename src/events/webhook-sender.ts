import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { networkFailure } from '../infra/net/network-failure.ts';
import { OutboundAddressError, resolveOutboundTarget } from '../infra/net/outbound-address.ts';

/** `Innkeep-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (API.md 8.2). */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** What one attempt got: an HTTP status, or why there was none. */
export interface AttemptResult {
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  url: string;
  eventId: string;
  body: string;
  secret: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Aborts the attempt (shutdown). */
  signal?: AbortSignal;
}

/** Responses are read only to free the connection; a receiver cannot make us buffer more. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One POST of an event. The address is checked again here (the name may resolve elsewhere now)
 * and the connection is pinned to the checked address through the agent's `lookup`, so a second
 * resolution cannot rebind it to a private one. Redirects are not followed (Node's client never
 * does): a 3xx is a failed attempt. The whole attempt, resolution included, has `timeoutMs`.
 */
export async function sendWebhook(options: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const done = (status: number | null, error: string | null): AttemptResult => ({
    status,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const target = await abortable(
      resolveOutboundTarget(options.url, { allowPrivate: options.allowPrivate }),
      signal,
    );
    const status = await post(target.url, target.address, target.family, options, signal);
    return done(status, null);
  } catch (error) {
    if (timeout.aborted) return done(null, `timeout after ${options.timeoutMs} ms`);
    if (signal.aborted) return done(null, 'aborted (shutdown)');
    if (error instanceof OutboundAddressError) return done(null, `refused: the URL ${error.message}`);
    return done(null, networkFailure(error));
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Kept-alive connections, one agent per (origin, checked address): a pooled socket was opened to
 * the address its agent is named by, so reusing it cannot reach anything but a checked address,
 * and an endpoint whose name now resolves elsewhere gets another agent. Each endpoint's sockets are
 * its own, so a slow one holds none of another's. The least recently used agents go past the cap.
 */
const agents = new Map<string, http.Agent>();
const MAX_AGENTS = 200;
/** Idle sockets close before a receiver's own keep-alive timeout commonly does (Node's is 5 s). */
const IDLE_SOCKET_MS = 4_000;

function agentFor(url: URL, address: string): http.Agent {
  const key = `${url.protocol}//${url.host}@${address}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key);
  } else {
    const Agent = url.protocol === 'https:' ? https.Agent : http.Agent;
    agent = new Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });
    for (const [oldest, old] of agents) {
      if (agents.size < MAX_AGENTS) break;
      old.destroy();
      agents.delete(oldest);
    }
  }
  agents.set(key, agent);
  return agent;
}

async function post(
  url: URL,
  address: string,
  family: 4 | 6,
  options: SendOptions,
  signal: AbortSignal,
): Promise<number> {
  try {
    return await postOnce(url, address, family, options, signal, true);
  } catch (error) {
    // A kept-alive socket the receiver closed just as we wrote to it: the request never reached
    // it, so it is sent once more on a new connection (at least once allows a duplicate anyway).
    if (!(error as { reusedSocket?: boolean }).reusedSocket || signal.aborted) throw error;
    return postOnce(url, address, family, options, signal, false);
  }
}

function postOnce(
  url: URL,
  address: string,
  family: 4 | 6,
  options: SendOptions,
  signal: AbortSignal,
  reuse: boolean,
): Promise<number> {
  // Answers the checked address whatever name is asked: the connection cannot go anywhere else.
  const pinned = ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  const client = url.protocol === 'https:' ? https : http;
  const unixSeconds = Math.floor(Date.now() / 1000);
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: reuse ? agentFor(url, address) : false,
        signal,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(options.body),
          'user-agent': 'Innkeep-Webhooks/1',
          'innkeep-event-id': options.eventId,
          'innkeep-signature': signatureHeader(options.secret, options.body, unixSeconds),
        },
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        // 'end' once the body is read (the socket goes back to its agent); 'close' if cut short.
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('close', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', (error) => {
      const code = (error as { code?: unknown }).code;
      const stale = request.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE');
      reject(stale ? Object.assign(error, { reusedSocket: true }) : error);
    });
    request.end(options.body);
  });
}
