import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/database.ts';

export interface StoredKey {
  requestHash: Buffer;
  state: 'in_progress' | 'done';
  response: Buffer | null;
  lockedUntil: Date;
  expiresAt: Date;
}

/**
 * Where a key is kept: its scope's hash (method, path, credential, key) and the hotel the request
 * is for. A hotel's keys live in `hotel_idempotency_keys`, with that hotel's rows (on Citus, its
 * shard: a booking stores its answer in its own transaction on one shard); a request without a
 * hotel keeps `idempotency_keys`.
 */
export interface KeyScope {
  hash: Buffer;
  hotelId: string | null;
}

/**
 * Proof of holding a key: a random token written by the claim or takeover (a fencing token, never
 * a clock reading, so two claims in one clock tick cannot look alike). Only its holder may
 * complete or release the key, so a request that outlived its lock (and was taken
 * over by another process) cannot overwrite or free the new holder's claim.
 */
export type ClaimToken = string;

/**
 * The table of `scope` and its row's condition, with the scope as the statement's first parameters
 * (`scope_hash = $1`, and `hotel_id = $2` for a hotel's key); `next` is the number of the first
 * parameter after them.
 */
function keyOf(scope: KeyScope) {
  if (scope.hotelId === null) {
    return { table: 'idempotency_keys', match: 'scope_hash = $1', params: [scope.hash], next: 2 };
  }
  return {
    table: 'hotel_idempotency_keys',
    match: 'hotel_id = $2 AND scope_hash = $1',
    params: [scope.hash, scope.hotelId],
    next: 3,
  };
}

/** Data access for idempotency keys; every statement autocommits so other processes see it at once. */
export const idempotencyRepository = {
  async claim(
    db: Executor,
    scope: KeyScope,
    requestHash: Buffer,
    lockSeconds: number,
    ttlSeconds: number,
    // Chosen by the caller, so a claim whose answer was lost with the connection can still be
    // given back (released by its token) once the database is back.
    token: ClaimToken = randomUUID(),
  ): Promise<ClaimToken | null> {
    const values = [requestHash, lockSeconds, ttlSeconds, token];
    const { rowCount } =
      scope.hotelId === null
        ? await db.query(
            `INSERT INTO idempotency_keys (scope_hash, request_hash, state, claim_token, locked_until, expires_at)
       VALUES ($1, $2, 'in_progress', $5, now() + make_interval(secs => $3), now() + make_interval(secs => $4))
       ON CONFLICT (scope_hash) DO NOTHING`,
            [scope.hash, ...values],
          )
        : await db.query(
            `INSERT INTO hotel_idempotency_keys
               (scope_hash, hotel_id, request_hash, state, claim_token, locked_until, expires_at)
       VALUES ($1, $2, $3, 'in_progress', $6, now() + make_interval(secs => $4), now() + make_interval(secs => $5))
       ON CONFLICT (hotel_id, scope_hash) DO NOTHING`,
            [scope.hash, scope.hotelId, ...values],
          );
    return rowCount === 1 ? token : null;
  },

  async find(db: Executor, scope: KeyScope): Promise<StoredKey | null> {
    const key = keyOf(scope);
    const { rows } = await db.query<{
      request_hash: Buffer;
      state: StoredKey['state'];
      response: Buffer | null;
      locked_until: Date;
      expires_at: Date;
    }>(
      `SELECT request_hash, state, response, locked_until, expires_at FROM ${key.table} WHERE ${key.match}`,
      key.params,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      requestHash: Buffer.from(row.request_hash),
      state: row.state,
      response: row.response ? Buffer.from(row.response) : null,
      lockedUntil: row.locked_until,
      expiresAt: row.expires_at,
    };
  },

  /** Drops a key whose 24 h are over, so the same key starts afresh. */
  async deleteIfExpired(db: Executor, scope: KeyScope) {
    const key = keyOf(scope);
    await db.query(`DELETE FROM ${key.table} WHERE ${key.match} AND expires_at <= now()`, key.params);
  },

  /** Takes over a key left in progress by a process that died; only one contender wins. */
  async takeOver(
    db: Executor,
    scope: KeyScope,
    lockSeconds: number,
    token: ClaimToken = randomUUID(),
  ): Promise<ClaimToken | null> {
    const key = keyOf(scope);
    const { rowCount } = await db.query(
      `UPDATE ${key.table} SET locked_until = now() + make_interval(secs => $${key.next}), claim_token = $${key.next + 1}
       WHERE ${key.match} AND state = 'in_progress' AND locked_until <= now()`,
      [...key.params, lockSeconds, token],
    );
    return rowCount === 1 ? token : null;
  },

  /** Stores the response; false when the claim was lost (taken over) and nothing was stored. */
  async complete(db: Executor, scope: KeyScope, token: ClaimToken, response: Buffer): Promise<boolean> {
    const key = keyOf(scope);
    const { rowCount } = await db.query(
      `UPDATE ${key.table} SET state = 'done', response = $${key.next + 1}
       WHERE ${key.match} AND state = 'in_progress' AND claim_token = $${key.next}`,
      [...key.params, token, response],
    );
    return rowCount === 1;
  },

  async release(db: Executor, scope: KeyScope, token: ClaimToken) {
    const key = keyOf(scope);
    await db.query(
      `DELETE FROM ${key.table} WHERE ${key.match} AND state = 'in_progress' AND claim_token = $${key.next}`,
      [...key.params, token],
    );
  },

  /**
   * When the last key stored before migration 123 (which gave hotels' requests their own table)
   * expires; null when none is left (a database that never had keys before it: never).
   */
  async legacyHotelKeysUntil(db: Executor): Promise<Date | null> {
    const { rows } = await db.query<{ until: Date | null }>(
      `SELECT max(k.expires_at) AS until
         FROM idempotency_keys k
         JOIN schema_migrations m ON m.version = '123_hotel_idempotency_keys.sql'
        WHERE k.expires_at > now() AND k.created_at <= m.applied_at`,
    );
    return rows[0]?.until ?? null;
  },

  /** Retention: every key whose 24 h are over, of both tables. */
  async deleteExpired(db: Executor) {
    const { rowCount } = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= now()');
    const hotels = await db.query('DELETE FROM hotel_idempotency_keys WHERE expires_at <= now()');
    return rowCount + hotels.rowCount;
  },
};
