import type { Executor } from '../infra/db/database.ts';
import { countInWindow } from '../infra/db/fixed-window-counter.ts';
import type { Scope } from './scopes.ts';

/** An operator key as stored, without its hash. */
export interface OperatorKey {
  id: string;
  name: string;
  scopes: Scope[];
  hotelIds: string[] | null;
  createdBy: string;
  createdAt: Date;
  revokedAt: Date | null;
}

interface KeyRow {
  public_id: string;
  name: string;
  scopes: Scope[];
  hotel_ids: string[] | null;
  created_by: string;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = 'public_id, name, scopes, hotel_ids, created_by, created_at, revoked_at';

const toKey = (row: KeyRow): OperatorKey => ({
  id: row.public_id,
  name: row.name,
  scopes: row.scopes,
  hotelIds: row.hotel_ids,
  createdBy: row.created_by,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

/** Data access for operator keys: explicit columns, the hash never leaves this file except as a lookup. */
export const keysRepository = {
  async insert(
    db: Executor,
    key: Omit<OperatorKey, 'createdAt' | 'revokedAt'> & { hash: Buffer },
  ): Promise<OperatorKey> {
    const { rows } = await db.query<KeyRow>(
      `INSERT INTO operator_keys (public_id, name, scopes, hotel_ids, key_hash, created_by)
       VALUES ($1, $2, $3::text[], $4::text[], $5, $6) RETURNING ${COLUMNS}`,
      [key.id, key.name, key.scopes, key.hotelIds, key.hash, key.createdBy],
    );
    return toKey(rows[0] as KeyRow);
  },

  /** The unrevoked key with this hash (the unique index makes it one indexed lookup). */
  async activeByHash(db: Executor, hash: Buffer): Promise<OperatorKey | null> {
    const { rows } = await db.query<KeyRow>(
      `SELECT ${COLUMNS} FROM operator_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
      [hash],
    );
    return rows[0] ? toKey(rows[0]) : null;
  },

  async byId(db: Executor, id: string, options: { forUpdate?: boolean } = {}): Promise<OperatorKey | null> {
    const { rows } = await db.query<KeyRow>(
      `SELECT ${COLUMNS} FROM operator_keys WHERE public_id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ? toKey(rows[0]) : null;
  },

  /** Every key, oldest first; `within` (when not null) keeps keys whose hotels all lie in it. */
  async list(db: Executor, within: readonly string[] | null): Promise<OperatorKey[]> {
    const { rows } = await db.query<KeyRow>(
      `SELECT ${COLUMNS} FROM operator_keys
       WHERE $1::text[] IS NULL OR (hotel_ids IS NOT NULL AND hotel_ids <@ $1::text[])
       ORDER BY created_at, public_id`,
      [within],
    );
    return rows.map(toKey);
  },

  async revoke(db: Executor, id: string, now: Date): Promise<void> {
    await db.query('UPDATE operator_keys SET revoked_at = $2 WHERE public_id = $1 AND revoked_at IS NULL', [
      id,
      now,
    ]);
  },

  /** Whether any key, revoked or not, was ever made (first-start bootstrap). */
  async anyExists(db: Executor): Promise<boolean> {
    const { rows } = await db.query('SELECT 1 FROM operator_keys LIMIT 1');
    return rows.length > 0;
  },

  /** Counts one failed authentication by a client in its fixed window; atomic across processes. */
  countFailure(db: Executor, clientHash: Buffer, now: Date, windowSeconds: number) {
    return countInWindow(db, 'operator_auth_failures', clientHash, now, windowSeconds);
  },

  async deleteEndedFailureWindows(db: Executor, before: Date): Promise<number> {
    const { rowCount } = await db.query('DELETE FROM operator_auth_failures WHERE window_start <= $1', [
      before,
    ]);
    return rowCount;
  },
};
