import { readdir, readFile } from 'node:fs/promises';
import { projectFile } from '../project-files.ts';
import type { Database } from './database.ts';
import { splitSqlStatements } from './sql-statements.ts';

const MIGRATIONS_DIR = projectFile('migrations/');
/** Any constant works; it only has to be the same in every process of a deployment. */
const MIGRATION_LOCK_KEY = 7_150_041;

export async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();
}

/**
 * Applies pending numbered SQL migrations in one transaction under an advisory lock, so processes
 * starting together apply each file exactly once and none serves traffic on a half-built schema.
 * Each file is sent one statement per query (`splitSqlStatements`): Citus refuses some DDL on
 * distributed tables inside a multi-statement query, and every engine takes one at a time.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = await migrationFiles();
  return db.transaction(async (tx) => {
    // Waiting for another process's migrations, or running a long one, must not hit the service's
    // statement timeout (a script also has no client-side timeout).
    await tx.script('SET LOCAL statement_timeout = 0');
    await tx.script(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await tx.query<{ version: string }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    const pending = files.filter((f) => !applied.has(f));
    for (const file of pending) {
      for (const statement of splitSqlStatements(await readFile(MIGRATIONS_DIR + file, 'utf8'))) {
        await tx.script(statement);
      }
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
    }
    return pending;
  });
}

/** Readiness: the database answers and every migration this build knows of is applied. */
export async function schemaIsCurrent(db: Database): Promise<boolean> {
  const files = await migrationFiles();
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM schema_migrations WHERE version = ANY($1::text[])',
    [files],
  );
  return rows[0]?.n === files.length;
}
