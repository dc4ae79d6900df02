import type { Executor } from '../infra/db/database.ts';
import type { Role } from './roles.ts';

/** The person behind a live session, as the guard needs them. */
export interface SessionHolder {
  staffId: number;
  publicId: string;
  name: string;
  role: Role;
  /** null = every hotel. */
  hotelIds: string[] | null;
  lastUsedAt: Date;
}

interface HolderRow {
  staff_id: string;
  public_id: string;
  name: string;
  role: Role;
  every_hotel: boolean;
  hotel_ids: string[];
  last_used_at: Date;
}

/** SQL of `staff_sessions` (migration 080): sessions stored by the SHA-256 of their secret. */
export const staffSessionsRepository = {
  async insert(
    db: Executor,
    session: { hash: Buffer; staffId: number; now: Date; expiresAt: Date },
  ): Promise<void> {
    await db.query(
      `INSERT INTO staff_sessions (token_hash, staff_id, created_at, last_used_at, expires_at)
       VALUES ($1, $2, $3, $3, $4)`,
      [session.hash, session.staffId, session.now, session.expiresAt],
    );
  },

  /**
   * The holder of a session that is live at `now`: not signed out, within its absolute end, used
   * after `idleSince`, of an active account. One indexed lookup, never cached, so a sign-out or a
   * disabled account on any process is seen here at once.
   */
  async liveHolder(db: Executor, hash: Buffer, now: Date, idleSince: Date): Promise<SessionHolder | null> {
    const { rows } = await db.query<HolderRow>(
      `SELECT a.id AS staff_id, a.public_id, a.name, a.role, a.every_hotel, s.last_used_at,
              ARRAY(SELECT h.hotel_id FROM staff_hotels h WHERE h.staff_id = a.id ORDER BY h.hotel_id) AS hotel_ids
       FROM staff_sessions s JOIN staff_accounts a ON a.id = s.staff_id
       WHERE s.token_hash = $1 AND a.status = 'active' AND s.expires_at > $2 AND s.last_used_at > $3`,
      [hash, now, idleSince],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      staffId: Number(row.staff_id),
      publicId: row.public_id,
      name: row.name,
      role: row.role,
      hotelIds: row.every_hotel ? null : row.hotel_ids,
      lastUsedAt: row.last_used_at,
    };
  },

  async touch(db: Executor, hash: Buffer, now: Date): Promise<void> {
    await db.query('UPDATE staff_sessions SET last_used_at = $2 WHERE token_hash = $1', [hash, now]);
  },

  /** Ends one session; answers its person, or null when there was no such session. */
  async end(db: Executor, hash: Buffer): Promise<number | null> {
    const { rows } = await db.query<{ staff_id: string | number }>(
      'DELETE FROM staff_sessions WHERE token_hash = $1 RETURNING staff_id',
      [hash],
    );
    return rows[0] ? Number(rows[0].staff_id) : null;
  },

  /** Ends every session of a person, but `keep` (the one that asked, when it stays signed in). */
  async endAllOf(db: Executor, staffId: number, keep: Buffer | null = null): Promise<void> {
    await db.query(
      'DELETE FROM staff_sessions WHERE staff_id = $1 AND ($2::bytea IS NULL OR token_hash <> $2)',
      [staffId, keep],
    );
  },

  async deleteEnded(db: Executor, now: Date, idleSince: Date): Promise<number> {
    const { rowCount } = await db.query(
      'DELETE FROM staff_sessions WHERE expires_at <= $1 OR last_used_at <= $2',
      [now, idleSince],
    );
    return rowCount;
  },
};
