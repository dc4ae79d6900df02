import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import {
  type Database,
  type Executor,
  keepDateText,
  parseInt8,
  type Transaction,
  TYPE_OIDS,
  withEndHooks,
} from './database.ts';

/** The embedded engine: a real PostgreSQL compiled to WASM, persisted in `dataDir` (or memory). */
export async function openEmbeddedDatabase(dataDir: string | null): Promise<Database> {
  return embeddedDatabase(await createPGlite(dataDir));
}

/**
 * A PGlite instance with the type parsers every embedded database uses. `loadDataDir` starts it
 * from a dump of another one's data directory (the tests start from a migrated copy this way).
 */
export async function createPGlite(dataDir: string | null, loadDataDir?: Blob): Promise<PGlite> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  return PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    parsers: {
      [TYPE_OIDS.int8]: parseInt8,
      [TYPE_OIDS.date]: keepDateText,
      [TYPE_OIDS.numeric]: parseInt8,
    },
  });
}

/** Tables a statement names as the target of INSERT, UPDATE, DELETE, MERGE or TRUNCATE. */
const TARGET =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?"?([A-Za-z_][\w.]*)/gi;

/** One SET, RESET or SHOW statement alone (no second statement after a semicolon). */
const SETTING = /^\s*(?:SET|RESET|SHOW)\s[^;]*;?\s*$/i;

/**
 * The tables a statement may change: none for a plain SELECT, the targets it names for one that
 * writes through INSERT / UPDATE / DELETE (a `SELECT … FOR UPDATE` or `ON CONFLICT DO UPDATE` adds
 * a word that names no table: harmless), and `null` — anything — for every other statement (DDL,
 * scripts, functions). The schema has no triggers, and its cascades stay within tables named here
 * (a session's steps go with it). Erring towards "may" only costs a re-read.
 */
export function tablesWritten(sql: string): Set<string> | null {
  // A transaction's own settings (the outbox workers' `SET LOCAL synchronous_commit = off`) change
  // no table: counted as "anything", every worker poll that sent a message emptied the check-in
  // session cache.
  if (SETTING.test(sql)) return new Set();
  const targets = new Set<string>();
  for (const m of sql.matchAll(TARGET)) {
    const name = (m[1] as string).toLowerCase();
    targets.add(name.slice(name.lastIndexOf('.') + 1)); // `public.reservations` is `reservations`
  }
  if (/^\s*(SELECT|WITH)\b/i.test(sql)) {
    if (targets.size === 0 && /\b(nextval|setval)\b/i.test(sql)) return null;
    return targets;
  }
  return /^\s*(INSERT|UPDATE|DELETE|MERGE)\b/i.test(sql) && targets.size > 0 ? targets : null;
}

/**
 * Database.changeCount for the embedded engine: a counter per table, and one for changes to
 * anything. A write moves its tables' counters before it starts and after it ends; a transaction
 * moves the counters of every table it wrote once more after it has ended (its changes are seen
 * from then on).
 */
function changeCounter() {
  const counts = new Map<string, number>();
  let anything = 0;
  const move = (tables: Set<string> | null) => {
    if (tables === null) anything++;
    else for (const t of tables) counts.set(t, (counts.get(t) ?? 0) + 1);
  };
  return {
    move,
    count(tables: readonly string[]): number {
      let n = anything;
      for (const t of tables) n += counts.get(t) ?? 0;
      return n;
    },
    async around<T>(tables: Set<string> | null, work: () => Promise<T>): Promise<T> {
      if (tables?.size === 0) return work();
      move(tables);
      try {
        return await work();
      } finally {
        move(tables);
      }
    },
  };
}

/**
 * Gives the engine to one operation (a statement, or a whole transaction) at a time, in the order
 * they asked, each from a turn of the event loop of its own (issue 23.6).
 *
 * PGlite runs in this thread and answers through promises that are already settled, so without
 * this a backlog of queued work drained in one go, in microtasks, and the event loop reached its
 * I/O only once the whole backlog was done. Node accepts one new connection per turn of the loop:
 * under 50 concurrent bookings a turn lasted a second, and a client whose connection was still
 * waiting to be accepted waited one turn per connection ahead of it, up to the end of the burst
 * (p99 25 x p50). Starting each operation from `setImmediate` lets the loop accept and read between
 * operations, so a request joins the queue when it arrives and is served in its turn.
 */
export function fairTurns() {
  const waiting: Array<() => void> = [];
  let busy = false;
  // The queue, as a pool of one connection would report it: turns waiting, how long one lasts.
  let meanHoldMs = 0;
  let turns = 0;
  const next = () => {
    const start = waiting.shift();
    if (start) start();
    else busy = false;
  };
  async function inTurn<T>(work: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!busy) {
        busy = true;
        setImmediate(next);
      }
    });
    const since = performance.now();
    try {
      return await work();
    } finally {
      const held = performance.now() - since;
      meanHoldMs = turns === 0 ? held : meanHoldMs + 0.1 * (held - meanHoldMs);
      turns++;
      setImmediate(next);
    }
  }
  return Object.assign(inTurn, {
    stats: () => ({ waiting: waiting.length, meanHoldMs, turns, busy }),
  });
}

/** The Database interface over an open PGlite instance; closing it closes the instance. */
export function embeddedDatabase(pg: PGlite): Database {
  let closed = false;
  const changes = changeCounter();
  // Statements of a transaction run within its turn; only what stands alone takes one.
  const inTurn = fairTurns();
  const run: Executor['query'] = (sql, params) =>
    inTurn(() =>
      changes.around(tablesWritten(sql), async () => {
        const result = await pg.query(sql, params as unknown[] | undefined);
        return { rows: result.rows as never[], rowCount: result.affectedRows ?? result.rows.length };
      }),
    );
  /** One transaction attempt, noting the tables it writes; they move again once it has ended. */
  const attempt = async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
    let written: Set<string> | null = new Set();
    const note = (sql: string) => {
      const tables = tablesWritten(sql);
      if (tables === null) written = null;
      else if (written) for (const t of tables) written.add(t);
      return tables;
    };
    try {
      return await withEndHooks((onEnd) =>
        inTurn(() =>
          pg.transaction((tx) =>
            fn({
              query: (sql, params) =>
                changes.around(note(sql), async () => {
                  const result = await tx.query(sql, params as unknown[] | undefined);
                  return {
                    rows: result.rows as never[],
                    rowCount: result.affectedRows ?? result.rows.length,
                  };
                }),
              script: (sql) => changes.around(note(''), () => tx.exec(sql).then(() => undefined)),
              onEnd,
              // One process and no listener (Database.listen is PostgreSQL's): nobody to tell.
              notify: () => {},
              batch: async (statements) => {
                let last = { rows: [] as never[], rowCount: 0 };
                for (const s of statements) {
                  const result = await changes.around(note(s.sql), () =>
                    tx.query(s.sql, s.params as unknown[] | undefined),
                  );
                  last = {
                    rows: result.rows as never[],
                    rowCount: result.affectedRows ?? result.rows.length,
                  };
                }
                return last;
              },
              database,
            }),
          ),
        ),
      );
    } finally {
      if (written === null || written.size > 0) changes.move(written);
    }
  };
  const database: Database = {
    kind: 'embedded',
    identity: {},
    query: run,
    script: (sql) => inTurn(() => changes.around(null, () => pg.exec(sql).then(() => undefined))),
    // One connection serialises everything, so there is nothing to retry: no deadlocks are possible.
    transaction: attempt,
    changeCount: (tables) => changes.count(tables),
    dumpDataDir: async () => {
      await pg.exec('CHECKPOINT');
      const dump = await pg.dumpDataDir('gzip');
      return new Uint8Array(await dump.arrayBuffer());
    },
    ping: async () => {
      if (closed) throw new Error('database closed');
      await inTurn(() => pg.query('SELECT 1'));
    },
    // One connection, and callers queue for their turn rather than in a pool: reported as never
    // waiting, so load shedding by database wait stays a PostgreSQL matter (the embedded process
    // has the event-loop check); `inTurn.stats()` has the queue for a caller that wants it.
    poolStats: () => ({ total: 1, idle: 1, waiting: 0, max: 1, meanHoldMs: 0, checkouts: 0 }),
    close: async () => {
      if (closed) return;
      closed = true;
      await pg.close();
    },
  };
  return database;
}
