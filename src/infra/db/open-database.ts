import type { Config } from '../../config.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { Database } from './database.ts';
import { openEmbeddedDatabase } from './pglite.ts';
import { openPostgresDatabase } from './postgres.ts';

/**
 * Opens the configured engine. The embedded one is locked to this process first (see
 * data-dir-lock.ts); the lock is released when the database is closed, or the process exits.
 */
export async function openDatabase(config: Config, options: { inMemory?: boolean } = {}): Promise<Database> {
  if (config.databaseUrl)
    return openPostgresDatabase({ url: config.databaseUrl, poolSize: config.dbPoolSize });
  if (options.inMemory) return openEmbeddedDatabase(null);
  const lock = await lockDataDir(config.dataDir);
  let db: Database;
  try {
    db = await openEmbeddedDatabase(`${config.dataDir}/pgdata`);
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    ...db,
    async close() {
      try {
        await db.close();
      } finally {
        lock.release();
      }
    },
  };
}
