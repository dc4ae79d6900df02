import type { Executor } from '../../infra/db/database.ts';
import { type FeedRecord, feedOf } from './ical-feeds.repository.ts';

/** SQL of the iCal imports (`ical_imports`, docs/api.md §9.1): their URLs, claims and last fetches. */

export interface ImportRow {
  id: string;
  hotelId: string;
  roomTypeId: string;
  /** The feed's URL, encrypted (commands/import-url.ts `importUrl` reads it) … */
  urlCiphertext: Buffer | null;
  /** … or, for a row of before encryption not yet sealed, in clear. */
  legacyUrl: string | null;
  /** The URL's host: the one part of it shown. */
  host: string;
  name: string;
  createdAt: Date;
  lastFetchAt: Date | null;
  lastStatus: 'ok' | 'failed' | null;
  lastError: string | null;
  lastEvents: number | null;
  lastConflicts: number | null;
}

const IMPORT_COLUMNS = `id, hotel_id, room_type_id, url, url_ciphertext, url_host, name, created_at, last_fetch_at, last_status,
  last_error, last_events, last_conflicts`;

type ImportRecord = FeedRecord & {
  url: string | null;
  url_ciphertext: Buffer | Uint8Array | null;
  url_host: string | null;
  name: string;
  last_fetch_at: Date | null;
  last_status: 'ok' | 'failed' | null;
  last_error: string | null;
  last_events: number | null;
  last_conflicts: number | null;
};

/** The host of a URL stored before encryption (checked at creation, so it parses). */
const hostOf = (url: string | null): string => {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return '';
  }
};

const imported = (r: ImportRecord): ImportRow => ({
  ...feedOf(r),
  urlCiphertext: r.url_ciphertext ? Buffer.from(r.url_ciphertext) : null,
  legacyUrl: r.url,
  host: r.url_host ?? hostOf(r.url),
  name: r.name,
  lastFetchAt: r.last_fetch_at ? new Date(r.last_fetch_at) : null,
  lastStatus: r.last_status,
  lastError: r.last_error,
  lastEvents: r.last_events,
  lastConflicts: r.last_conflicts,
});

/** A URL as stored: encrypted, its keyed hash (to find the same URL again), its host (shown). */
export interface SealedUrl {
  ciphertext: Buffer;
  hash: Buffer;
  host: string;
}

/** The advisory-lock space of import creations (see calendar-lock.ts and migrate.ts for the others). */
const IMPORTS_LOCK_SPACE = 7_150_043;

export const icalImportsRepository = {
  async insertImport(
    db: Executor,
    row: { id: string; hotelId: string; roomTypeId: string; name: string } & SealedUrl,
  ): Promise<ImportRow> {
    const { rows } = await db.query<ImportRecord>(
      `INSERT INTO ical_imports (id, hotel_id, room_type_id, url_ciphertext, url_hash, url_host, name)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${IMPORT_COLUMNS}`,
      [row.id, row.hotelId, row.roomTypeId, row.ciphertext, row.hash, row.host, row.name],
    );
    return imported(rows[0] as ImportRecord);
  },

  /**
   * Serialises the creation of imports of one room type until the transaction ends, so the count
   * and the same-URL check below cannot both pass for two creations at once.
   */
  async lockRoomTypeImports(db: Executor, hotelId: string, roomTypeId: string): Promise<void> {
    await db.query('SELECT 1 AS held FROM pg_advisory_xact_lock($1::int, hashtext($2))', [
      IMPORTS_LOCK_SPACE,
      `${hotelId}/${roomTypeId}`,
    ]);
  },

  /** How many imports the room type has, and the id of one with this URL's hash, if any. */
  async roomTypeImports(
    db: Executor,
    hotelId: string,
    roomTypeId: string,
    urlHash: Buffer,
  ): Promise<{ count: number; sameUrl: string | null }> {
    const { rows } = await db.query<{ count: number; same_url: string | null }>(
      `SELECT count(*)::int AS count, min(id) FILTER (WHERE url_hash = $3) AS same_url
       FROM ical_imports WHERE hotel_id = $1 AND room_type_id = $2`,
      [hotelId, roomTypeId, urlHash],
    );
    return { count: rows[0]?.count ?? 0, sameUrl: rows[0]?.same_url ?? null };
  },

  /** Rows stored before encryption, with their URL in clear (a few at a time). */
  async unsealed(db: Executor, limit: number): Promise<Array<{ id: string; url: string }>> {
    const { rows } = await db.query<{ id: string; url: string }>(
      'SELECT id, url FROM ical_imports WHERE url IS NOT NULL ORDER BY id LIMIT $1',
      [limit],
    );
    return rows;
  },

  /** Replaces a clear URL by its sealed form (a no-op when another process did it first). */
  async seal(db: Executor, id: string, url: string, sealed: SealedUrl): Promise<void> {
    await db.query(
      `UPDATE ical_imports SET url = NULL, url_ciphertext = $3, url_hash = $4, url_host = $5
       WHERE id = $1 AND url = $2`,
      [id, url, sealed.ciphertext, sealed.hash, sealed.host],
    );
  },

  /**
   * Counts a manual sync of the import in its window of `windowSeconds` (a new window when the
   * last one has passed): the count with this one and when the window began.
   */
  async countSync(
    db: Executor,
    id: string,
    windowSeconds: number,
  ): Promise<{ count: number; windowStart: Date; now: Date } | null> {
    // The transaction's time read first and passed in: Citus refuses now() in a RETURNING.
    const clock = await db.query<{ now: Date }>('SELECT now() AS now');
    const now = clock.rows[0]?.now as Date;
    const { rows } = await db.query<{ count: number; window_start: Date }>(
      `UPDATE ical_imports SET
         sync_count = CASE WHEN fresh THEN 1 ELSE sync_count + 1 END,
         sync_window_start = CASE WHEN fresh THEN $3::timestamptz ELSE sync_window_start END
       FROM (SELECT sync_window_start IS NULL OR sync_window_start <= $3::timestamptz - make_interval(secs => $2) AS fresh
             FROM ical_imports WHERE id = $1) w
       WHERE id = $1
       RETURNING sync_count AS count, sync_window_start AS window_start`,
      [id, windowSeconds, now],
    );
    const row = rows[0];
    return row ? { count: row.count, windowStart: new Date(row.window_start), now: new Date(now) } : null;
  },

  async importsOf(db: Executor, hotelId: string): Promise<ImportRow[]> {
    const { rows } = await db.query<ImportRecord>(
      `SELECT ${IMPORT_COLUMNS} FROM ical_imports WHERE hotel_id = $1 ORDER BY created_at, id`,
      [hotelId],
    );
    return rows.map(imported);
  },

  /**
   * The import; with `lockInHotel` (its hotel), locked against a concurrent fetch's write of its
   * holds. The lock names the hotel: Citus refuses a locking read not routed to one shard.
   */
  async importById(db: Executor, id: string, lockInHotel?: string): Promise<ImportRow | null> {
    const { rows } = await db.query<ImportRecord>(
      lockInHotel === undefined
        ? `SELECT ${IMPORT_COLUMNS} FROM ical_imports WHERE id = $1`
        : `SELECT ${IMPORT_COLUMNS} FROM ical_imports WHERE hotel_id = $2 AND id = $1 FOR UPDATE`,
      lockInHotel === undefined ? [id] : [id, lockInHotel],
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
    // Hotel by hotel (the hotels with the longest-due imports first): a locking read stays inside
    // one hotel's rows, which on Citus is one shard (a locking read across shards is refused).
    const hotels = await db.query<{ hotel_id: string }>(
      `SELECT hotel_id FROM ical_imports
        WHERE next_fetch_at <= now() AND (lease_until IS NULL OR lease_until < now())
        GROUP BY hotel_id ORDER BY min(next_fetch_at) LIMIT $1`,
      [limit],
    );
    const claimed: ImportRow[] = [];
    for (const { hotel_id: hotelId } of hotels.rows) {
      if (claimed.length >= limit) break;
      const { rows } = await db.query<ImportRecord>(
        `UPDATE ical_imports SET lease_until = now() + make_interval(secs => $2)
         WHERE hotel_id = $3 AND id IN (
           SELECT id FROM ical_imports
           WHERE hotel_id = $3 AND next_fetch_at <= now() AND (lease_until IS NULL OR lease_until < now())
           ORDER BY next_fetch_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING ${IMPORT_COLUMNS}`,
        [limit - claimed.length, leaseSeconds, hotelId],
      );
      claimed.push(...rows.map(imported));
    }
    return claimed;
  },
};
