import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Encryptor } from '../crypto/encryption.ts';
import type { Database } from '../db/database.ts';
import { AppError, invalid } from '../http/problems.ts';
import { type ClaimToken, idempotencyRepository as keys } from './idempotency.repository.ts';

const TTL_SECONDS = 24 * 3600;
/** Longer than any request may run (server request timeout); after it a dead process's key is freed. */
const LOCK_SECONDS = 60;
/** Headers a replay must repeat for the client to see the same response. */
const REPLAYED_HEADERS = ['content-type', 'etag', 'location', 'www-authenticate'];

interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: { scope: Buffer; token: ClaimToken };
  }
}

/** Key order must not make two equal bodies look different. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha256 = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest();

/**
 * Stripe-style `Idempotency-Key` on every POST and PATCH: the first completed (< 500) response is
 * stored encrypted and replayed for the same key and body for 24 h; a different body is
 * `idempotency_key_reused`; a concurrent duplicate (on any process) is `idempotency_in_progress`.
 */
export const idempotency = fp(async (app: FastifyInstance, opts: { db: Database; encryptor: Encryptor }) => {
  const { db, encryptor } = opts;

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST' && request.method !== 'PATCH') return;
    // Keys are scoped to an endpoint: an unknown path (404/405) has none, so nothing is stored.
    if (!request.routeOptions.url) return;
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || key.length < 1 || key.length > 255) {
      throw invalid('/headers/idempotency-key', 'must be 1 to 255 characters');
    }
    const path = request.url.split('?')[0] ?? '';
    const credential = request.headers.authorization ?? '';
    const scope = sha256(request.method, path, credential, key);
    const requestHash = sha256(canonicalJson(request.body ?? null));

    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await keys.claim(db, scope, requestHash, LOCK_SECONDS, TTL_SECONDS);
      if (claimed) {
        request.idempotencyClaim = { scope, token: claimed };
        return;
      }
      const stored = await keys.find(db, scope);
      if (!stored) continue; // released or expired between the two statements: claim again
      if (stored.expiresAt.getTime() <= Date.now()) {
        await keys.deleteIfExpired(db, scope);
        continue;
      }
      if (!stored.requestHash.equals(requestHash)) {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different request body; use a new key.',
        );
      }
      if (stored.state === 'done' && stored.response) {
        const response = JSON.parse(
          encryptor.decrypt(stored.response, 'idempotency').toString('utf8'),
        ) as StoredResponse;
        reply.headers(response.headers).header('idempotent-replayed', 'true').code(response.status);
        // The stored body is already serialised: bypass the schema serialiser.
        return reply.serializer((payload: unknown) => payload as string).send(response.body);
      }
      const takenOver =
        stored.lockedUntil.getTime() <= Date.now() ? await keys.takeOver(db, scope, LOCK_SECONDS) : null;
      if (takenOver) {
        request.idempotencyClaim = { scope, token: takenOver };
        return;
      }
      throw new AppError(
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still being processed; retry shortly.',
        { headers: { 'retry-after': '1' } },
      );
    }
    throw new AppError('idempotency_in_progress', 'The Idempotency-Key is contended; retry shortly.', {
      headers: { 'retry-after': '1' },
    });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    const { scope, token } = claim;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await keys
        .release(db, scope, token)
        .catch((err) => request.log.warn({ err }, 'could not release idempotency key'));
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const stored: StoredResponse = { status: reply.statusCode, headers, body: payload };
    // The work is done (a reservation may be committed): failing to store its response must not turn
    // it into an error the client would retry, and must never lose the one response that carries the
    // access token. The key then stays in progress until its lock lapses.
    try {
      const kept = await keys.complete(
        db,
        scope,
        token,
        encryptor.encrypt(JSON.stringify(stored), 'idempotency'),
      );
      if (!kept) request.log.warn('idempotency key was taken over before this response was stored');
    } catch (err) {
      request.log.warn({ err }, 'could not store the idempotent response');
    }
    return payload;
  });
});
