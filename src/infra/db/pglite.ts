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

/**
 * The tables a statement may change: none for a plain SELECT, the targets it names for one that
 * writes through INSERT / UPDATE / DELETE (a `SELECT … FOR UPDATE` or `ON CONFLICT DO UPDATE` adds
 * a word that names no table: harmless), and `null` — anything — for every other statement (DDL,
 * scripts, functions). The schema has no triggers, and its cascades stay within tables named here
 * (a session's steps go with it). Erring towards "may" only costs a re-read.
 */
export function tablesWritten(sql: string): Set<string> | null {
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

/** The Database interface over an open PGlite instance; closing it closes the instance. */
export function embeddedDatabase(pg: PGlite): Database {
  let closed = false;
  const changes = changeCounter();
  const run: Executor['query'] = (sql, params) =>
    changes.around(tablesWritten(sql), async () => {
      const result = await pg.query(sql, params as unknown[] | undefined);
      return { rows: result.rows as never[], rowCount: result.affectedRows ?? result.rows.length };
    });
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
        pg.transaction((tx) =>
          fn({
            query: (sql, params) =>
              changes.around(note(sql), async () => {
                const result = await tx.query(sql, params as unknown[] | undefined);
                return { rows: result.rows as never[], rowCount: result.affectedRows ?? result.rows.length };
              }),
            script: (sql) => changes.around(note(''), () => tx.exec(sql).then(() => undefined)),
            onEnd,
            database,
          }),
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
    script: (sql) => changes.around(null, () => pg.exec(sql).then(() => undefined)),
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
      await pg.query('SELECT 1');
    },
    // One connection, and callers queue on the event loop rather than in a pool: never waiting.
    poolStats: () => ({ total: 1, idle: 1, waiting: 0, max: 1, meanHoldMs: 0, checkouts: 0 }),
    close: async () => {
      if (closed) return;
      closed = true;
      await pg.close();
    },
  };
  return database;
}
