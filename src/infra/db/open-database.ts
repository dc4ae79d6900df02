import type { Config } from '../../config.ts';
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import type { Database } from './database.ts';
import { openEmbeddedDatabase } from './pglite.ts';
import { openPostgresDatabase } from './postgres.ts';

/**
 * Opens the configured engine. The embedded one is locked to this process first (see
 * data-dir-lock.ts), or opened under `options.lock`, a lock on DATA_DIR the caller already took
 * (the service takes it before loading its modules); either way it is released when the database
 * is closed, when opening fails, or when the process exits.
 */
export async function openDatabase(
  config: Config,
  options: { inMemory?: boolean; lock?: DataDirLock } = {},
): Promise<Database> {
  if (config.databaseUrl)
    return openPostgresDatabase({ url: config.databaseUrl, poolSize: config.dbPoolSize });
  if (options.inMemory) return openEmbeddedDatabase(null);
  const lock = options.lock ?? (await lockDataDir(config.dataDir));
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
