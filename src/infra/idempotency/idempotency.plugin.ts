import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Encryptor } from '../crypto/encryption.ts';
import type { Database, Executor } from '../db/database.ts';
import { AppError, invalid } from '../http/problems.ts';
import { withHeaders } from '../http/vary.ts';
import { type ClaimToken, type KeyScope, idempotencyRepository as keys } from './idempotency.repository.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey } from './idempotency-key.ts';
import { pendingReleases } from './pending-releases.ts';

const TTL_SECONDS = 24 * 3600;
/** Longer than any request may run (server request timeout); after it a dead process's key is freed. */
const LOCK_SECONDS = 60;
/** Headers a replay must repeat for the client to see the same response. */
const REPLAYED_HEADERS = [
  'content-type',
  'content-language',
  'etag',
  'location',
  'www-authenticate',
  'cache-control',
  'vary',
];

/** A response as stored for replay: the body exactly as first sent (already serialised). */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The claimed key of the current request, for a handler whose write commits a change: it stores
 * the response inside that write's transaction (see `atomic-reply.ts`), so the change and its
 * replayable answer commit together or not at all.
 */
export interface IdempotencyHandle {
  /**
   * Stores `response` as the key's answer within `tx`. Throws `idempotency_in_progress` (rolling the
   * change back) when the claim was taken over: only the holder of the key may commit its work.
   */
  storeWithin(tx: Executor, response: StoredResponse): Promise<void>;
  /** The transaction that stored the response committed: nothing is left to store after sending. */
  committed(): void;
}

interface Claim {
  scope: KeyScope;
  token: ClaimToken;
  storedWithChange: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: Claim;
    idempotency?: IdempotencyHandle;
  }
  interface FastifyContextConfig {
    /**
     * The hotel a request is for, when its route can tell from the validated request alone (a
     * booking's quote id, a quote's hotel): its key is kept with that hotel's rows, so on Citus the
     * answer stored with a change commits on the hotel's shard (issue 37). Null, or no function:
     * the key is kept apart from every hotel (`idempotency_keys`).
     */
    idempotencyHotel?: (request: FastifyRequest) => string | null;
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

const sealed = (encryptor: Encryptor, response: StoredResponse) =>
  encryptor.encrypt(JSON.stringify(response), 'idempotency');

/**
 * Stripe-style `Idempotency-Key` on every POST and PATCH: the first completed (< 500) response is
 * stored encrypted and replayed for the same key and body for 24 h; a different body is
 * `idempotency_key_reused`; a concurrent duplicate (on any process) is `idempotency_in_progress`.
 *
 * A response that commits a change (a reservation, a cancellation, a check-in step) is stored by
 * the handler in the change's own transaction (`request.idempotency`), so no crash can leave the
 * change committed without its answer. Other responses (refusals, searches, quotes, which hold no
 * rooms) are stored here after sending, where losing one costs only a re-run.
 */
export const idempotency = fp(async (app: FastifyInstance, opts: { db: Database; encryptor: Encryptor }) => {
  const { db, encryptor } = opts;
  const releases = pendingReleases(db, app.log, LOCK_SECONDS);
  app.addHook('onClose', async () => releases.close());

  // Keys of a hotel's requests stored before migration 123 are in `idempotency_keys`: until the last
  // of them expires (24 h), a hotel's keyed request looks there first, so a retry sent across the
  // upgrade is still answered from its first attempt.
  const legacyUntil = (await keys.legacyHotelKeysUntil(db))?.getTime() ?? 0;
  async function scopeOf(hash: Buffer, hotelId: string | null): Promise<KeyScope> {
    if (hotelId === null || Date.now() >= legacyUntil) return { hash, hotelId };
    const legacy: KeyScope = { hash, hotelId: null };
    return (await keys.find(db, legacy)) ? legacy : { hash, hotelId };
  }

  function hold(request: FastifyRequest, scope: KeyScope, token: ClaimToken) {
    const claim: Claim = { scope, token, storedWithChange: false };
    request.idempotencyClaim = claim;
    request.idempotency = {
      async storeWithin(tx, response) {
        if (!(await keys.complete(tx, scope, token, sealed(encryptor, response)))) {
          throw new AppError(
            'idempotency_in_progress',
            'Another attempt with this Idempotency-Key took it over; retry shortly.',
            { headers: { 'retry-after': '1' } },
          );
        }
      },
      committed() {
        claim.storedWithChange = true;
      },
    };
  }

  // Most requests carry no key: they pass at once (a callback hook: an async one costs every
  // request a promise turn); a key is claimed by `claim`, whose promise the hook runner awaits.
  app.addHook('preHandler', (request, reply, done) => {
    if (
      (request.method !== 'POST' && request.method !== 'PATCH') ||
      // Keys are scoped to an endpoint: an unknown path (404/405) has none, so nothing is stored.
      !request.routeOptions.url ||
      request.headers['idempotency-key'] === undefined
    )
      return done();
    return claim(request, reply) as unknown as undefined;
  });

  async function claim(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers['idempotency-key'];
    const key = typeof header === 'string' ? parseIdempotencyKey(header) : null;
    if (key === null) {
      throw invalid(
        '/headers/idempotency-key',
        `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, bare or as a quoted structured-field string`,
      );
    }
    const path = request.url.split('?')[0] ?? '';
    // The caller's credential: a key, or a signed-in person's session cookie (API.md 12).
    const session = /(?:^|;\s*)innkeep_session=([^;\s]*)/.exec(request.headers.cookie ?? '')?.[1];
    const credential = request.headers.authorization ?? (session ? `session ${session}` : '');
    const scope = await scopeOf(
      sha256(request.method, path, credential, key),
      request.routeOptions.config.idempotencyHotel?.(request) ?? null,
    );
    const requestHash = sha256(canonicalJson(request.body ?? null));

    // A claim of this key that this process could not give back during an outage goes first.
    await releases.settle(scope);
    for (let attempt = 0; attempt < 3; attempt++) {
      const token = randomUUID();
      let claimed: ClaimToken | null;
      try {
        claimed = await keys.claim(db, scope, requestHash, LOCK_SECONDS, TTL_SECONDS, token);
      } catch (error) {
        // The claim may have committed though its answer was lost: give it back when possible.
        releases.release(scope, token);
        throw error;
      }
      if (claimed) {
        hold(request, scope, claimed);
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
        withHeaders(reply, response.headers).header('idempotent-replayed', 'true').code(response.status);
        // The stored body is already serialised: bypass the schema serialiser.
        return reply.serializer((payload: unknown) => payload as string).send(response.body);
      }
      // Still needed although a change commits with its response: a process that died before its
      // commit left the claim (committed on its own) with no change behind it. Once the lock has
      // lapsed, the retry takes the key over and runs afresh; the token fences the dead holder.
      const takenOver =
        stored.lockedUntil.getTime() <= Date.now() ? await keys.takeOver(db, scope, LOCK_SECONDS) : null;
      if (takenOver) {
        hold(request, scope, takenOver);
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
  }

  // As above: an answer without a claim passes at once; one with a claim is stored by `store`.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.idempotencyClaim) return done(null, payload);
    return store(request, reply, payload) as unknown as undefined;
  });

  async function store(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    request.idempotency = undefined;
    // Stored with the change, in its transaction: storing again would only fail (the key is done).
    if (claim.storedWithChange) return payload;
    const { scope, token } = claim;
    // Every failed ending (a 5xx, a thrown error, the database away) gives the key back, now or
    // as soon as the database lets this process (pending-releases.ts), without holding the answer:
    // with the database silent, waiting would add the pool's connection timeout to every 503.
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      releases.release(scope, token);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const stored: StoredResponse = { status: reply.statusCode, headers, body: payload };
    // Responses stored here committed nothing a retry could not safely do again (refusals, a
    // search, a quote, an existing session): failing to store one only means a retry runs again,
    // once the lock lapses. It must not turn the response sent into an error.
    try {
      const kept = await keys.complete(db, scope, token, sealed(encryptor, stored));
      if (!kept) request.log.warn('idempotency key was taken over before this response was stored');
    } catch (err) {
      request.log.warn({ err }, 'could not store the idempotent response');
      releases.release(scope, token);
    }
    return payload;
  }
});
