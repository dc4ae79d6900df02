import type { Executor } from '../db/database.ts';

export interface StoredKey {
  requestHash: Buffer;
  state: 'in_progress' | 'done';
  response: Buffer | null;
  lockedUntil: Date;
  expiresAt: Date;
}

/** Data access for idempotency keys; every statement autocommits so other processes see it at once. */
export const idempotencyRepository = {
  async claim(db: Executor, scope: Buffer, requestHash: Buffer, lockSeconds: number, ttlSeconds: number) {
    const { rowCount } = await db.query(
      `INSERT INTO idempotency_keys (scope_hash, request_hash, state, locked_until, expires_at)
       VALUES ($1, $2, 'in_progress', now() + make_interval(secs => $3), now() + make_interval(secs => $4))
       ON CONFLICT (scope_hash) DO NOTHING`,
      [scope, requestHash, lockSeconds, ttlSeconds],
    );
    return rowCount === 1;
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
  async takeOver(db: Executor, scope: Buffer, lockSeconds: number) {
    const { rowCount } = await db.query(
      `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $2)
       WHERE scope_hash = $1 AND state = 'in_progress' AND locked_until <= now()`,
      [scope, lockSeconds],
    );
    return rowCount === 1;
  },

  async complete(db: Executor, scope: Buffer, response: Buffer) {
    await db.query(`UPDATE idempotency_keys SET state = 'done', response = $2 WHERE scope_hash = $1`, [
      scope,
      response,
    ]);
  },

  async release(db: Executor, scope: Buffer) {
    await db.query(`DELETE FROM idempotency_keys WHERE scope_hash = $1 AND state = 'in_progress'`, [scope]);
  },

  async deleteExpired(db: Executor) {
    const { rowCount } = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= now()');
    return rowCount;
  },
};
