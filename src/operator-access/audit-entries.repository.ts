import type { Executor } from '../infra/db/database.ts';
import type { WritePart } from '../infra/db/write-part.ts';

export type AuditActorType = 'staff' | 'key' | 'guest' | 'channel' | 'system';

/** Who acted (API.md 12): a person, an operator key, a guest, a channel, or the service itself. */
export interface AuditActor {
  type: AuditActorType;
  id: string;
  name: string;
}

/** One entry of the audit trail as stored and answered. */
export interface AuditEntry {
  id: string;
  at: Date;
  /** The hotel; null when it concerns several hotels or every hotel (see `hotelIds`). */
  hotelId: string | null;
  /** The hotels it concerns (null: every hotel): who may read it. */
  hotelIds: string[] | null;
  actor: AuditActor;
  action: string;
  target: { type: string; id: string };
  changes: Record<string, [unknown, unknown]> | null;
  details: Record<string, unknown> | null;
  requestId: string | null;
}

/** Where a page ended: the entry's time with full (microsecond) precision, and its id. */
export interface AuditPosition {
  at: string;
  id: string;
}

export interface AuditFilter {
  /** The caller's hotels (null = every hotel): entries whose hotels all lie within them. */
  within: readonly string[] | null;
  hotelId: string | null;
  actorId: string | null;
  action: string | null;
  from: Date | null;
  /** Exclusive upper bound. */
  to: Date | null;
}

interface AuditRow {
  hotel_id: string;
  id: string;
  at: Date;
  hotel_ids: string[] | null;
  actor_type: AuditActorType;
  actor_id: string;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  changes: Record<string, [unknown, unknown]> | null;
  details: Record<string, unknown> | null;
  request_id: string | null;
  position: string;
}

export const auditEntriesRepository = {
  /**
   * An entry's insert, run in the transaction of the change it records (alone, or carried by the
   * change's own statement: `WritePart`). Its time is the database's clock as it runs
   * (microseconds), so entries of one transaction keep their order.
   */
  insertPart(entry: Omit<AuditEntry, 'at'>): WritePart {
    return {
      sql: `INSERT INTO audit_entries (hotel_id, id, at, hotel_ids, actor_type, actor_id, actor_name, action,
                                  target_type, target_id, changes, details, request_id)
       VALUES ($1, $2, clock_timestamp(), $3::text[], $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12)`,
      values: [
        entry.hotelId ?? '',
        entry.id,
        entry.hotelIds,
        entry.actor.type,
        entry.actor.id,
        entry.actor.name,
        entry.action,
        entry.target.type,
        entry.target.id,
        entry.changes === null ? null : JSON.stringify(entry.changes),
        entry.details === null ? null : JSON.stringify(entry.details),
        entry.requestId,
      ],
    };
  },

  /** Newest first, after `from` (keyset, so entries written while paging never shift a page). */
  async page(
    db: Executor,
    filter: AuditFilter,
    options: { from: AuditPosition | null; limit: number },
  ): Promise<Array<AuditEntry & { position: AuditPosition }>> {
    const { rows } = await db.query<AuditRow>(
      `SELECT hotel_id, id, at, hotel_ids, actor_type, actor_id, actor_name, action, target_type,
              target_id, changes, details, request_id,
              to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
       FROM audit_entries
       WHERE ($1::text[] IS NULL OR (hotel_ids IS NOT NULL AND hotel_ids <@ $1::text[]))
         AND ($2::text IS NULL OR $2::text = ANY (hotel_ids))
         AND ($3::text IS NULL OR actor_id = $3::text)
         AND ($4::text IS NULL OR action = $4::text)
         AND ($5::timestamptz IS NULL OR at >= $5::timestamptz)
         AND ($6::timestamptz IS NULL OR at < $6::timestamptz)
         AND ($7::timestamptz IS NULL OR (at, id) < ($7::timestamptz, $8::text))
       ORDER BY at DESC, id DESC
       LIMIT $9`,
      [
        filter.within,
        filter.hotelId,
        filter.actorId,
        filter.action,
        filter.from,
        filter.to,
        options.from?.at ?? null,
        options.from?.id ?? null,
        options.limit,
      ],
    );
    return rows.map((r) => ({
      id: r.id,
      at: r.at,
      hotelId: r.hotel_id === '' ? null : r.hotel_id,
      hotelIds: r.hotel_ids,
      actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
      action: r.action,
      target: { type: r.target_type, id: r.target_id },
      changes: r.changes,
      details: r.details,
      requestId: r.request_id,
      position: { at: r.position, id: r.id },
    }));
  },

  /** Retention (AUDIT_RETENTION_DAYS): deletes entries older than `before`, answers how many. */
  async deleteOlderThan(db: Executor, before: Date): Promise<number> {
    const { rowCount } = await db.query('DELETE FROM audit_entries WHERE at < $1', [before]);
    return rowCount;
  },
};
