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
 * Proof of holding a key: a random token written by the claim or takeover (a fencing token, never
 * a clock reading, so two claims in one clock tick cannot look alike). Only its holder may
 * complete or release the key, so a request that outlived its lock (and was taken
 * over by another process) cannot overwrite or free the new holder's claim.
 */
export type ClaimToken = string;

/** Data access for idempotency keys; every statement autocommits so other processes see it at once. */
export const idempotencyRepository = {
  async claim(
    db: Executor,
    scope: Buffer,
    requestHash: Buffer,
    lockSeconds: number,
    ttlSeconds: number,
    // Chosen by the caller, so a claim whose answer was lost with the connection can still be
    // given back (released by its token) once the database is back.
    token: ClaimToken = randomUUID(),
  ): Promise<ClaimToken | null> {
    const { rowCount } = await db.query(
      `INSERT INTO idempotency_keys (scope_hash, request_hash, state, claim_token, locked_until, expires_at)
       VALUES ($1, $2, 'in_progress', $5, now() + make_interval(secs => $3), now() + make_interval(secs => $4))
       ON CONFLICT (scope_hash) DO NOTHING`,
      [scope, requestHash, lockSeconds, ttlSeconds, token],
    );
    return rowCount === 1 ? token : null;
  },

  async find(db: Executor, scope: Buffer): Promise<StoredKey | null> {
    const { rows } = await db.query<{
      request_hash: Buffer;
      state: StoredKey['state'];
      response: Buffer | null;
      locked_until: Date;
      expires_at: Date;
      expired: boolean;
      lock_lapsed: boolean;
    }>(
      `SELECT request_hash, state, response, locked_until, expires_at FROM idempotency_keys WHERE scope_hash = $1`,
      [scope],
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
  async deleteIfExpired(db: Executor, scope: Buffer) {
    await db.query('DELETE FROM idempotency_keys WHERE scope_hash = $1 AND expires_at <= now()', [scope]);
  },

  /** Takes over a key left in progress by a process that died; only one contender wins. */
  async takeOver(
    db: Executor,
    scope: Buffer,
    lockSeconds: number,
    token: ClaimToken = randomUUID(),
  ): Promise<ClaimToken | null> {
    const { rowCount } = await db.query(
      `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $2), claim_token = $3
       WHERE scope_hash = $1 AND state = 'in_progress' AND locked_until <= now()`,
      [scope, lockSeconds, token],
    );
    return rowCount === 1 ? token : null;
  },

  /** Stores the response; false when the claim was lost (taken over) and nothing was stored. */
  async complete(db: Executor, scope: Buffer, token: ClaimToken, response: Buffer): Promise<boolean> {
    const { rowCount } = await db.query(
      `UPDATE idempotency_keys SET state = 'done', response = $3
       WHERE scope_hash = $1 AND state = 'in_progress' AND claim_token = $2`,
      [scope, token, response],
    );
    return rowCount === 1;
  },

  async release(db: Executor, scope: Buffer, token: ClaimToken) {
    await db.query(
      `DELETE FROM idempotency_keys WHERE scope_hash = $1 AND state = 'in_progress' AND claim_token = $2`,
      [scope, token],
    );
  },

  async deleteExpired(db: Executor) {
    const { rowCount } = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= now()');
    return rowCount;
  },
};
