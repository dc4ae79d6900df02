import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { loadConfig } from '../../src/config.ts';
import { openPostgresDatabase } from '../../src/infra/db/postgres.ts';
import { createLogger } from '../../src/infra/logger.ts';
import { bootstrapOperatorKey } from '../../src/operator-access/bootstrap.ts';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { SCOPES } from '../../src/operator-access/scopes.ts';
import { createRuntime } from '../../src/runtime.ts';
import { sharedSchemaCompilers } from '../helpers/schema-compilers.ts';
import { makeHotel, startTestApp } from '../helpers/test-app.ts';
import { needsPostgres, scratchDatabase } from '../postgres/support.ts';
import { auth, OPERATOR } from './helpers.ts';

/** A stream that keeps what is written to it. */
function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('first-start operator key', () => {
  // First: the tests of a file share one database, and this one needs it to hold no key yet.
  it('is off with OPERATOR_BOOTSTRAP=false', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'innkeep-bootstrap-'));
    const t = await startTestApp({
      hotels: [makeHotel()],
      env: { DATABASE_URL: '', DATA_DIR: dataDir, OPERATOR_BOOTSTRAP: 'false' },
    });
    try {
      await assert.rejects(stat(path.join(dataDir, 'operator-key')), { code: 'ENOENT' });
      const { rows } = await t.db.query('SELECT 1 FROM operator_keys');
      assert.equal(rows.length, 0);
    } finally {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('embedded: written to DATA_DIR/operator-key with mode 0600, never logged, made only once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'innkeep-bootstrap-'));
    const t = await startTestApp({
      hotels: [makeHotel()],
      env: { DATABASE_URL: '', DATA_DIR: dataDir, OPERATOR_BOOTSTRAP: 'true', LOG_LEVEL: 'trace' },
    });
    try {
      const file = path.join(dataDir, 'operator-key');
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const key = (await readFile(file, 'utf8')).trim();
      assert.match(key, /^ik_[0-9a-z]{52}$/);
      const keys = await t.inject({ method: 'GET', url: `${OPERATOR}/keys`, headers: auth(key) });
      assert.equal(keys.statusCode, 200, keys.body);
      assert.deepEqual(keys.json().data[0].scopes, [...SCOPES], 'every scope');
      assert.equal(keys.json().data[0].createdBy, 'bootstrap');

      const logs = t.logs.join('\n');
      assert.ok(logs.includes(file), 'the log says where the key went');
      assert.equal(logs.includes(key.slice(3)), false, 'never the key');

      const again = await bootstrapOperatorKey({
        db: t.db,
        hash: operatorKeyHasher(t.config.dataEncryptionKey as Buffer),
        logger: createLogger('silent'),
        dataDir,
      });
      assert.equal(again, 'exists');
      assert.equal((await readFile(file, 'utf8')).trim(), key, 'the file is left alone');
    } finally {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL: processes starting together make one key, printed once to standard error', {
    skip: needsPostgres,
  }, async () => {
    const scratch = await scratchDatabase();
    const env = {
      DATABASE_URL: scratch.url,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DATA_DIR: path.join(tmpdir(), 'innkeep-bootstrap-pg-unused'),
      PUBLIC_BASE_URL: 'https://innkeep.test',
      LOG_LEVEL: 'info',
    };
    const hotels = parseCatalog({ hotels: [makeHotel()] }).hotels;
    const starts = Array.from({ length: 4 }, () => {
      const config = loadConfig(env);
      const stderr = capture();
      const logs = capture();
      const db = openPostgresDatabase({ url: scratch.url, poolSize: 3 });
      return {
        config,
        stderr,
        logs,
        db,
        runtime: createRuntime(config, createLogger('info', logs.stream), {
          db,
          hotels,
          stderr: stderr.stream,
          schemaCompilers: sharedSchemaCompilers,
        }),
      };
    });
    try {
      const runtimes = await Promise.all(starts.map((s) => s.runtime));
      const [first] = runtimes as [(typeof runtimes)[number]];
      const printed = starts
        .map((s) => /ik_[0-9a-z]{52}/.exec(s.stderr.text())?.[0])
        .filter(Boolean) as string[];
      assert.equal(printed.length, 1, 'exactly one process printed a key');
      const [key] = printed as [string];
      const { rows } = await first.db.query('SELECT 1 FROM operator_keys');
      assert.equal(rows.length, 1, 'exactly one key was made');
      const hotelsSeen = await first.app.inject({
        method: 'GET',
        url: `${OPERATOR}/hotels`,
        headers: auth(key),
      });
      assert.equal(hotelsSeen.statusCode, 200);
      const logs = starts.map((s) => s.logs.text()).join('\n');
      assert.ok(logs.includes('printed it once to standard error'));
      assert.equal(logs.includes(key.slice(3)), false, 'never in the logs');
      for (const runtime of runtimes) await runtime.close();
    } finally {
      for (const s of starts) await s.db.close().catch(() => {});
      await scratch.drop();
    }
  });
});
