import { randomToken } from '../infra/crypto/tokens.ts';
import type { Executor } from '../infra/db/database.ts';

/** One thing an operator did. `details` holds ids, dates and counts, never identity data. */
export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  hotelIds: string[] | null;
  details: Record<string, unknown>;
  createdAt: Date;
}

interface AuditRow {
  public_id: string;
  actor: string;
  action: string;
  hotel_ids: string[] | null;
  details: Record<string, unknown>;
  created_at: Date;
  position: string;
}

/** Where a page ended: the entry's time with full (microsecond) precision, and its id. */
export interface AuditPosition {
  at: string;
  id: string;
}

export const auditRepository = {
  /** Writes an entry; call it inside the transaction of the action it records. */
  async append(
    db: Executor,
    entry: { actor: string; action: string; hotelIds: readonly string[] | null; details: object },
  ): Promise<void> {
    await db.query(
      `INSERT INTO audit_log (public_id, actor, action, hotel_ids, details)
       VALUES ($1, $2, $3, $4::text[], $5::jsonb)`,
      [randomToken('aud_', 12), entry.actor, entry.action, entry.hotelIds, JSON.stringify(entry.details)],
    );
  },

  /**
   * Newest first, after `from` (keyset, so entries written while paging never shift a page).
   * `within` (when not null) keeps entries whose hotels all lie in it.
   */
  async page(
    db: Executor,
    options: { within: readonly string[] | null; from: AuditPosition | null; limit: number },
  ): Promise<Array<AuditEntry & { position: AuditPosition }>> {
    const { rows } = await db.query<AuditRow>(
      `SELECT public_id, actor, action, hotel_ids, details, created_at,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
       FROM audit_log
       WHERE ($1::text[] IS NULL OR (hotel_ids IS NOT NULL AND hotel_ids <@ $1::text[]))
         AND ($2::timestamptz IS NULL OR (created_at, public_id) < ($2::timestamptz, $3::text))
       ORDER BY created_at DESC, public_id DESC
       LIMIT $4`,
      [options.within, options.from?.at ?? null, options.from?.id ?? null, options.limit],
    );
    return rows.map((r) => ({
      id: r.public_id,
      actor: r.actor,
      action: r.action,
      hotelIds: r.hotel_ids,
      details: r.details,
      createdAt: r.created_at,
      position: { at: r.position, id: r.public_id },
    }));
  },
};
