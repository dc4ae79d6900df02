import type { Executor } from '../../infra/db/database.ts';

/** SQL of the iCal feeds (export) and imports (API.md 11.1). */

export interface FeedRow {
  id: string;
  hotelId: string;
  roomTypeId: string;
  createdAt: Date;
}

export interface ImportRow {
  id: string;
  hotelId: string;
  roomTypeId: string;
  url: string;
  name: string;
  createdAt: Date;
  lastFetchAt: Date | null;
  lastStatus: 'ok' | 'failed' | null;
  lastError: string | null;
  lastEvents: number | null;
  lastConflicts: number | null;
}

const FEED_COLUMNS = 'id, hotel_id, room_type_id, created_at';
const IMPORT_COLUMNS = `id, hotel_id, room_type_id, url, name, created_at, last_fetch_at, last_status,
  last_error, last_events, last_conflicts`;

type FeedRecord = { id: string; hotel_id: string; room_type_id: string; created_at: Date };
type ImportRecord = FeedRecord & {
  url: string;
  name: string;
  last_fetch_at: Date | null;
  last_status: 'ok' | 'failed' | null;
  last_error: string | null;
  last_events: number | null;
  last_conflicts: number | null;
};

const feed = (r: FeedRecord): FeedRow => ({
  id: r.id,
  hotelId: r.hotel_id,
  roomTypeId: r.room_type_id,
  createdAt: new Date(r.created_at),
});

const imported = (r: ImportRecord): ImportRow => ({
  ...feed(r),
  url: r.url,
  name: r.name,
  lastFetchAt: r.last_fetch_at ? new Date(r.last_fetch_at) : null,
  lastStatus: r.last_status,
  lastError: r.last_error,
  lastEvents: r.last_events,
  lastConflicts: r.last_conflicts,
});

export const icalRepository = {
  async insertFeed(
    db: Executor,
    row: { id: string; hotelId: string; roomTypeId: string; tokenHash: Buffer },
  ) {
    const { rows } = await db.query<FeedRecord>(
      `INSERT INTO ical_feeds (id, hotel_id, room_type_id, token_hash) VALUES ($1, $2, $3, $4)
       RETURNING ${FEED_COLUMNS}`,
      [row.id, row.hotelId, row.roomTypeId, row.tokenHash],
    );
    return feed(rows[0] as FeedRecord);
  },

  async feedByTokenHash(db: Executor, tokenHash: Buffer): Promise<FeedRow | null> {
    const { rows } = await db.query<FeedRecord>(
      `SELECT ${FEED_COLUMNS} FROM ical_feeds WHERE token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ? feed(rows[0]) : null;
  },

  async feedsOf(db: Executor, hotelId: string): Promise<FeedRow[]> {
    const { rows } = await db.query<FeedRecord>(
      `SELECT ${FEED_COLUMNS} FROM ical_feeds WHERE hotel_id = $1 ORDER BY created_at, id`,
      [hotelId],
    );
    return rows.map(feed);
  },

  async feedById(db: Executor, id: string): Promise<FeedRow | null> {
    const { rows } = await db.query<FeedRecord>(`SELECT ${FEED_COLUMNS} FROM ical_feeds WHERE id = $1`, [id]);
    return rows[0] ? feed(rows[0]) : null;
  },

  async deleteFeed(db: Executor, id: string): Promise<void> {
    await db.query('DELETE FROM ical_feeds WHERE id = $1', [id]);
  },

  async insertImport(
    db: Executor,
    row: { id: string; hotelId: string; roomTypeId: string; url: string; name: string },
  ): Promise<ImportRow> {
    const { rows } = await db.query<ImportRecord>(
      `INSERT INTO ical_imports (id, hotel_id, room_type_id, url, name) VALUES ($1, $2, $3, $4, $5)
       RETURNING ${IMPORT_COLUMNS}`,
      [row.id, row.hotelId, row.roomTypeId, row.url, row.name],
    );
    return imported(rows[0] as ImportRecord);
  },

  async importsOf(db: Executor, hotelId: string): Promise<ImportRow[]> {
    const { rows } = await db.query<ImportRecord>(
      `SELECT ${IMPORT_COLUMNS} FROM ical_imports WHERE hotel_id = $1 ORDER BY created_at, id`,
      [hotelId],
    );
    return rows.map(imported);
  },

  /** The import, locked against a concurrent fetch's write of its holds when `forUpdate`. */
  async importById(db: Executor, id: string, forUpdate = false): Promise<ImportRow | null> {
    const { rows } = await db.query<ImportRecord>(
      `SELECT ${IMPORT_COLUMNS} FROM ical_imports WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ? imported(rows[0]) : null;
  },

  async deleteImport(db: Executor, id: string): Promise<void> {
    await db.query('DELETE FROM ical_imports WHERE id = $1', [id]);
  },

  /** Records a fetch's outcome and when the next one is due (its claim ends with it). */
  async recordFetch(
    db: Executor,
    id: string,
    outcome: {
      status: 'ok' | 'failed';
      error: string | null;
      events: number | null;
      conflicts: number | null;
    },
    nextFetchSeconds: number,
  ): Promise<ImportRow | null> {
    const { rows } = await db.query<ImportRecord>(
      `UPDATE ical_imports SET last_fetch_at = now(), last_status = $2, last_error = $3,
         last_events = coalesce($4, last_events), last_conflicts = coalesce($5, last_conflicts),
         next_fetch_at = now() + make_interval(secs => $6), lease_until = NULL
       WHERE id = $1 RETURNING ${IMPORT_COLUMNS}`,
      [id, outcome.status, outcome.error, outcome.events, outcome.conflicts, nextFetchSeconds],
    );
    return rows[0] ? imported(rows[0]) : null;
  },

  /**
   * Claims up to `limit` imports due for a fetch, for `leaseSeconds`: each is fetched by one
   * process at a time (SKIP LOCKED; a killed process's claim runs out and another takes it).
   */
  async claimDue(db: Executor, limit: number, leaseSeconds: number): Promise<ImportRow[]> {
    const { rows } = await db.query<ImportRecord>(
      `UPDATE ical_imports SET lease_until = now() + make_interval(secs => $2)
       WHERE id IN (
         SELECT id FROM ical_imports
         WHERE next_fetch_at <= now() AND (lease_until IS NULL OR lease_until < now())
         ORDER BY next_fetch_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING ${IMPORT_COLUMNS}`,
      [limit, leaseSeconds],
    );
    return rows.map(imported);
  },
};
