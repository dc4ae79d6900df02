/** DATABASE_URL selects the `pg` pool, sized by DB_POOL_SIZE (default 10), never more connections. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/infra/db/open-database.ts';
import { DATABASE_URL, needsPostgres, newEncryptionKey } from './support.ts';

describe('the PostgreSQL pool', () => {
  test('DATABASE_URL opens a pool of DB_POOL_SIZE connections that never grows past it', {
    skip: needsPostgres,
  }, async () => {
    const env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: newEncryptionKey(),
      PUBLIC_BASE_URL: 'https://innkeep.test',
    };
    assert.equal(loadConfig(env).dbPoolSize, 10);
    const db = await openDatabase(loadConfig({ ...env, DB_POOL_SIZE: '3' }));
    try {
      assert.equal(db.kind, 'postgres');
      let most = 0;
      await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const work =
            i % 2 === 0
              ? db.query('SELECT pg_sleep(0.05)')
              : db.transaction((tx) => tx.query('SELECT pg_sleep(0.05)'));
          most = Math.max(most, db.poolStats().total);
          await work;
          most = Math.max(most, db.poolStats().total);
        }),
      );
      assert.equal(most, 3);
      const stats = db.poolStats();
      assert.equal(stats.waiting, 0);
      assert.equal(stats.idle, stats.total);
    } finally {
      await db.close();
    }
  });
});
