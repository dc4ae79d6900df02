import { type Database, type Executor, isTransaction } from '../infra/db/database.ts';

/**
 * Where a reader stands in the feed: the (transaction id, position) of the last event it saw.
 * `xid` is an xid8 as decimal text.
 */
export interface FeedPosition {
  xid: string;
  position: number;
}

export interface StoredEvent {
  id: string;
  type: string;
  hotelId: string;
  data: Record<string, unknown>;
  createdAt: Date;
  at: FeedPosition;
}

interface EventRow {
  position: number;
  xid_text: string;
  public_id: string;
  type: string;
  hotel_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const toEvent = (r: EventRow): StoredEvent => ({
  id: r.public_id,
  type: r.type,
  hotelId: r.hotel_id,
  data: r.data,
  createdAt: r.created_at,
  at: { xid: r.xid_text, position: Number(r.position) },
});

/*
 * Why the feed never skips an event (API.md 8.1), and why this way.
 *
 * A position from an identity column is taken when the row is inserted, not when its transaction
 * commits: transaction A takes position 5, B takes 6 and commits first, a reader sees 6 and moves
 * past it, then A commits and 5 is behind the reader for ever. Two fixes were possible:
 *
 *  (a) give positions at commit time: take one lock just before COMMIT, then nextval(). Every
 *      transaction that raises an event would need a hook at its very end (recordEvent cannot add
 *      one: it only has `tx`), and all of them would queue on that lock through their commit
 *      (WAL flush included), serialising the booking path.
 *  (b) keep the insert-time position, record the inserting transaction's id (`xid`, a column
 *      default, so recordEvent stays one INSERT) and publish an event only once its transaction
 *      is older than every transaction still running: `xid < pg_snapshot_xmin(pg_current_snapshot())`,
 *      narrowed to this database's transactions by `events_feed_horizon()` (migration 007).
 *      Every transaction below that horizon has committed or aborted, so the set of published
 *      events only ever grows at the end of the (xid, position) order: a reader past an event in
 *      that order has seen every event before it.
 *
 * We chose (b): no lock on the write path, nothing to remember at commit, the same SQL on
 * PostgreSQL and PGlite. Its cost: an event waits for every older transaction of this database to
 * end (a long-running one delays the feed; the service's connections are cut after 60 s idle in a
 * transaction). The order is that of the transactions' first writes, a consistent total order in
 * which each transaction's events are contiguous once published.
 *
 * The order is that of the xid8 values, numbers, as the cursor's row comparison is: the text of an
 * id goes out only in the SELECT list (as `xid_text`) and never names what is sorted. Ordering by
 * a text alias put "1000" before "999", and a reader paging from the start skipped every event
 * written before the ids gained a digit (test/events/feed-order.test.ts).
 */
/*
 * The horizon is read by a statement of its own, before the events: on Citus, a subquery inside
 * the read of the (distributed) events table ran on each worker, against the worker's own
 * transaction ids, while an event's `xid` is the coordinator's (the coordinator evaluates the
 * column default), so the feed showed nothing once the counters parted. Read first, on the server
 * the service talks to, the horizon is no later than the one the events' read would have taken:
 * every transaction below it had ended before the events are read, so the guarantee holds.
 */

/** How long a page waits for the two-phase commits below its horizon to finish (see below). */
const SETTLE_TIMEOUT_MS = 2000;
const SETTLE_POLL_MS = 5;

/*
 * On Citus "ended on the coordinator" is not yet "visible on the worker": a transaction that wrote
 * two nodes (a booking whose confirmation code's shard is on another node than its hotel's) PREPAREs
 * on the workers, commits on the coordinator, and only then commits the prepared parts (Citus's
 * CoordinatedTransactionCallback). In that gap its xid is below the horizon while its event cannot
 * be read yet. (A transaction on one worker alone commits there before the coordinator does, so it
 * has no such gap.) So a page (`settle`) reads the horizon together with the transactions prepared
 * on any node at that moment (migration 124, in the same round trip), and waits until every one of
 * them is resolved. Each transaction below the horizon prepared before it committed on the
 * coordinator, so before the horizon was read: it is in that list or already visible. Listed
 * transactions above the horizon only make the wait longer. A prepared transaction left behind by a
 * coordinator crash is resolved by Citus's recovery (citus.recover_2pc_interval); until then the
 * page answers nothing new (never a skip), after SETTLE_TIMEOUT_MS.
 *
 * Without Citus that list is always empty, yet the function looks up pg_extension on every call; so
 * whether the citus extension is installed is remembered per database (by its `identity`), read with
 * the first page's horizon, and a server without it reads the horizon alone from then on. This
 * assumes Citus is installed before the service starts (docs/production.md, moving a deployment),
 * never under a running process: a per-process answer is then the database's for as long as the
 * process lives.
 */
const citusInstalled = new WeakMap<object, boolean>();

/** The database an executor belongs to, to key what is remembered of it (none for a bare executor). */
function identityOf(db: Executor): object | undefined {
  if (isTransaction(db)) return db.database.identity;
  return (db as Partial<Database>).identity;
}

/**
 * The feed's horizon: every event whose transaction id is below it is published. With `settle`
 * (a page of events) it also waits for the two-phase commits below it to become visible, and is
 * null when they did not within SETTLE_TIMEOUT_MS; without (a cursor's check) it never waits.
 */
async function horizon(db: Executor, options: { settle: true }): Promise<string | null>;
async function horizon(db: Executor, options: { settle: false }): Promise<string>;
async function horizon(db: Executor, { settle }: { settle: boolean }): Promise<string | null> {
  const identity = identityOf(db);
  const citus = identity === undefined ? undefined : citusInstalled.get(identity);
  if (!settle || citus === false) {
    const { rows } = await db.query<{ horizon: string }>('SELECT events_feed_horizon()::text AS horizon');
    return rows[0]?.horizon as string;
  }
  const { rows } = await db.query<{ horizon: string; pending: string[]; citus: boolean }>(
    `SELECT events_feed_horizon()::text AS horizon, events_feed_pending_commits() AS pending,
            EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`,
  );
  const { horizon: read, pending, citus: installed } = rows[0] as (typeof rows)[number];
  if (identity !== undefined) citusInstalled.set(identity, installed);
  let waiting = new Set(pending);
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (waiting.size > 0) {
    if (Date.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const { rows: now } = await db.query<{ pending: string[] }>(
      'SELECT events_feed_pending_commits() AS pending',
    );
    const still = new Set(now[0]?.pending ?? []);
    waiting = new Set([...waiting].filter((gid) => still.has(gid)));
  }
  return read;
}

export const feedRepository = {
  /** The feed position of an event by id, with its hotel; null for an unknown (or purged) id. */
  async positionOf(db: Executor, id: string): Promise<{ at: FeedPosition; hotelId: string } | null> {
    const { rows } = await db.query<{ xid_text: string; position: number; hotel_id: string }>(
      `SELECT xid::text AS xid_text, position, hotel_id FROM events WHERE public_id = $1 AND xid < $2::text::xid8`,
      [id, await horizon(db, { settle: false })],
    );
    const row = rows[0];
    return row ? { at: { xid: row.xid_text, position: Number(row.position) }, hotelId: row.hotel_id } : null;
  },

  /**
   * Published events after `after` (from the start when null), in feed order. `hotelIds` null = all
   * hotels, `types` null = all types.
   */
  async page(
    db: Executor,
    q: {
      after: FeedPosition | null;
      hotelIds: readonly string[] | null;
      types: readonly string[] | null;
      limit: number;
    },
  ): Promise<StoredEvent[]> {
    const publishedBelow = await horizon(db, { settle: true });
    if (publishedBelow === null) return [];
    const { rows } = await db.query<EventRow>(
      `SELECT position, xid::text AS xid_text, public_id, type, hotel_id, data, created_at
         FROM events
        WHERE xid < $6::text::xid8
          AND ($1::text IS NULL OR (xid, position) > ($1::text::xid8, $2::bigint))
          AND ($3::text[] IS NULL OR hotel_id = ANY ($3::text[]))
          AND ($4::text[] IS NULL OR type = ANY ($4::text[]))
        ORDER BY events.xid, events.position
        LIMIT $5`,
      [q.after?.xid ?? null, q.after?.position ?? null, q.hotelIds, q.types, q.limit, publishedBelow],
    );
    return rows.map(toEvent);
  },

  /** Retention (EVENT_RETENTION_DAYS): events created before `before` go, with their deliveries. */
  async deleteOlderThan(db: Executor, before: Date): Promise<number> {
    let deleted = 0;
    // In batches, so a first purge of a large backlog holds no long transaction.
    for (;;) {
      const { rowCount } = await db.query(
        `DELETE FROM events WHERE position IN (
           SELECT position FROM events WHERE created_at < $1 ORDER BY created_at LIMIT 5000)`,
        [before],
      );
      deleted += rowCount;
      if (rowCount < 5000) return deleted;
    }
  },
};
