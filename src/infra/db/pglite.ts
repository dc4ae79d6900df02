import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { type Database, type Executor, keepDateText, parseInt8, TYPE_OIDS } from './database.ts';

/** The embedded engine: a real PostgreSQL compiled to WASM, persisted in `dataDir` (or memory). */
export async function openEmbeddedDatabase(dataDir: string | null): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    parsers: {
      [TYPE_OIDS.int8]: parseInt8,
      [TYPE_OIDS.date]: keepDateText,
      [TYPE_OIDS.numeric]: parseInt8,
    },
  });
  let closed = false;
  const run: Executor['query'] = async (sql, params) => {
    const result = await pg.query(sql, params as unknown[] | undefined);
    return { rows: result.rows as never[], rowCount: result.affectedRows ?? result.rows.length };
  };
  return {
    kind: 'embedded',
    query: run,
    script: async (sql) => {
      await pg.exec(sql);
    },
    // One connection serialises everything, so there is nothing to retry: no deadlocks are possible.
    transaction: (fn) =>
      pg.transaction((tx) =>
        fn({
          query: async (sql, params) => {
            const result = await tx.query(sql, params as unknown[] | undefined);
            return { rows: result.rows as never[], rowCount: result.affectedRows ?? result.rows.length };
          },
          script: async (sql) => {
            await tx.exec(sql);
          },
        }),
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
}
