/**
 * Migrations on a real server: many processes and runtimes starting at once on one fresh
 * database apply each migration exactly once (the advisory lock), and `npm run migrate` migrates
 * and exits on both engines.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { migrate, migrationFiles } from '../../src/infra/db/migrate.ts';
import { openPostgresDatabase } from '../../src/infra/db/postgres.ts';
import { nodeScript } from '../helpers/node-command.ts';
import { needsPostgres, run, scratchDatabase, sqlClient } from './support.ts';

/** The migrations a `npm run migrate` run reports as applied by itself. */
function appliedBy(stdout: string): string[] {
  const match = /applied \d+ migration\(s\) to .*: (.*)$/m.exec(stdout);
  return match?.[1] ? match[1].split(', ') : [];
}

describe('npm run migrate', () => {
  test('embedded: migrates DATA_DIR and exits 0; a second run has nothing to do', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'innkeep-migrate-'));
    try {
      const first = await run(nodeScript('src/cli/migrate.ts'), { DATA_DIR: dataDir });
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(appliedBy(first.stdout), await migrationFiles());
      // PGlite's initdb on the empty DATA_DIR prints nothing: stdout is the CLI's one line (and the
      // service's stdout, which opens the database the same way, stays JSON log lines only).
      assert.equal(first.stdout.trim().split('\n').length, 1, first.stdout);
      const second = await run(nodeScript('src/cli/migrate.ts'), { DATA_DIR: dataDir });
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /is up to date/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL: processes and runtimes migrating one fresh database at once apply each migration exactly once', {
    skip: needsPostgres,
  }, async () => {
    const scratch = await scratchDatabase();
    const pools = Array.from({ length: 4 }, () => openPostgresDatabase({ url: scratch.url, poolSize: 2 }));
    try {
      const files = await migrationFiles();
      const [cliRuns, runtimeRuns] = await Promise.all([
        Promise.all(
          Array.from({ length: 2 }, () =>
            run(nodeScript('src/cli/migrate.ts'), { DATABASE_URL: scratch.url }),
          ),
        ),
        Promise.all(pools.map((db) => migrate(db))),
      ]);
      for (const r of cliRuns) assert.equal(r.code, 0, r.stderr);

      // Every file was applied by exactly one of the six, whichever won the lock.
      const applied = [...cliRuns.flatMap((r) => appliedBy(r.stdout)), ...runtimeRuns.flat()];
      assert.deepEqual([...applied].sort(), files);

      const client = await sqlClient(scratch.url);
      try {
        const { rows } = await client.query<{ version: string }>(
          'SELECT version FROM schema_migrations ORDER BY version',
        );
        assert.deepEqual(
          rows.map((r) => r.version),
          files,
        );
        // The schema is really there, not just recorded.
        const { rows: tables } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM information_schema.tables
             WHERE table_schema = 'public' AND table_name IN ('inventory', 'reservations', 'idempotency_keys')`,
        );
        assert.equal(tables[0]?.n, 3);
      } finally {
        await client.end();
      }

      const again = await run(nodeScript('src/cli/migrate.ts'), { DATABASE_URL: scratch.url });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /is up to date/);
    } finally {
      await Promise.all(pools.map((db) => db.close()));
      await scratch.drop();
    }
  });
});
