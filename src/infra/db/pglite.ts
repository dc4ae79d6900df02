import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import {
  type Database,
  type Executor,
  keepDateText,
  parseInt8,
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

/** The Database interface over an open PGlite instance; closing it closes the instance. */
export function embeddedDatabase(pg: PGlite): Database {
  let closed = false;
  const run: Executor['query'] = async (sql, params) => {
    const result = await pg.query(sql, params as unknown[] | undefined);
    return { rows: result.rows as never[], rowCount: result.affectedRows ?? result.rows.length };
  };
  const database: Database = {
    kind: 'embedded',
    identity: {},
    query: run,
    script: async (sql) => {
      await pg.exec(sql);
    },
    // One connection serialises everything, so there is nothing to retry: no deadlocks are possible.
    transaction: (fn) =>
      withEndHooks((onEnd) =>
        pg.transaction((tx) =>
          fn({
            query: async (sql, params) => {
              const result = await tx.query(sql, params as unknown[] | undefined);
              return { rows: result.rows as never[], rowCount: result.affectedRows ?? result.rows.length };
            },
            script: async (sql) => {
              await tx.exec(sql);
            },
            onEnd,
            database,
          }),
        ),
      ),
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
