import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { loadConfig } from '../../src/config.ts';
import { openEmbeddedDatabase } from '../../src/infra/db/pglite.ts';
import { createLogger } from '../../src/infra/logger.ts';
import { createRuntime } from '../../src/runtime.ts';
import { nodeScript } from '../helpers/node-command.ts';
import { sharedSchemaCompilers } from '../helpers/schema-compilers.ts';
import { makeHotel, type TestApp, TestClock } from '../helpers/test-app.ts';
import { seededDataDir } from '../helpers/test-database.ts';
import { bookStay, completeCheckin, openedSession } from './helpers.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs a CLI against an embedded database in `dataDir` (never the suite's PostgreSQL). */
async function cli(script: string, env: Record<string, string>) {
  const { DATABASE_URL: _, ...inherited } = process.env;
  return run(process.execPath, nodeScript(script), {
    cwd: ROOT,
    env: { ...inherited, ...env },
    timeout: 60_000,
  });
}

describe('command-line tools', () => {
  it('rotate-keys adds a new current key and keeps the old one', async () => {
    const dataDir = await seededDataDir('innkeep-rotate-');
    const env = { DATA_DIR: dataDir, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    try {
      const first = await cli('src/cli/rotate-keys.ts', env);
      assert.match(first.stdout, /new signing key \S+/);
      const second = await cli('src/cli/rotate-keys.ts', env);
      const kid = /new signing key (\S+);/.exec(second.stdout)?.[1];
      const db = await openEmbeddedDatabase(path.join(dataDir, 'pgdata'));
      try {
        const { rows } = await db.query<{ kid: string; retired_at: Date | null }>(
          'SELECT kid, retired_at FROM signing_keys ORDER BY created_at',
        );
        assert.equal(rows.length, 3, 'the first key, and one per rotation');
        assert.deepEqual(
          rows.filter((r) => r.retired_at === null).map((r) => r.kid),
          [kid],
        );
        // Each rotation is in the audit trail as the command line's (API.md 12).
        const audit = await db.query<{ actor: string; target_id: string; hotel_id: string }>(
          `SELECT actor_type || '/' || actor_id AS actor, target_id, hotel_id FROM audit_entries
           WHERE action = 'signing_key.rotated' ORDER BY at`,
        );
        assert.deepEqual(
          audit.rows.map((r) => r.actor),
          ['system/cli', 'system/cli'],
        );
        assert.equal(audit.rows[1]?.target_id, kid);
        assert.equal(audit.rows[1]?.hotel_id, '', 'every hotel');
      } finally {
        await db.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('purge-identity deletes identity data of stays past the retention period', async () => {
    const dataDir = await seededDataDir('innkeep-purge-');
    const env = {
      DATA_DIR: dataDir,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'silent',
      MAIL_WORKER: 'false',
    };
    try {
      // A stay that checked out about a month ago: booked and checked in on a clock 40 days back.
      const config = loadConfig(env);
      const db = await openEmbeddedDatabase(path.join(dataDir, 'pgdata'));
      const clock = new TestClock();
      clock.advanceDays(-40);
      const hotel = makeHotel();
      const runtime = await createRuntime(config, createLogger('silent'), {
        db,
        clock,
        hotels: parseCatalog({ hotels: [hotel] }).hotels,
        schemaCompilers: sharedSchemaCompilers,
      });
      const t = {
        app: runtime.app,
        runtime,
        db,
        clock,
        config,
        logs: [],
        inject: (o) => runtime.app.inject(o) as never,
        close: async () => {},
      } as TestApp;
      const booked = await bookStay(t, hotel);
      const { id } = await openedSession(t, booked);
      await completeCheckin(t, id, booked);
      await runtime.close();
      await db.close();

      const { stdout } = await cli('src/cli/purge-identity.ts', { ...env, IDENTITY_RETENTION_DAYS: '30' });
      assert.match(stdout, /purged identity data of 1 check-in session/);

      const reopened = await openEmbeddedDatabase(path.join(dataDir, 'pgdata'));
      try {
        const { rows } = await reopened.query<{ data: unknown; secret: unknown }>(
          "SELECT data, secret FROM checkin_steps WHERE name = 'identity_document'",
        );
        assert.deepEqual(rows, [{ data: { purged: true }, secret: null }]);
        // Audited as the command line (API.md 12), with the count only.
        const audit = await reopened.query<{ actor: string; hotel_id: string; details: unknown }>(
          `SELECT actor_type || '/' || actor_id || '/' || actor_name AS actor, hotel_id, details
           FROM audit_entries WHERE action = 'guest_identity.purged'`,
        );
        assert.deepEqual(audit.rows, [
          {
            actor: 'system/cli/Command line',
            hotel_id: hotel.id,
            details: { documents: 1, retentionDays: 30 },
          },
        ]);
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
