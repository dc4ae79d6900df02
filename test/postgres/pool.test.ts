/** DATABASE_URL selects the `pg` pool, sized by DB_POOL_SIZE (default 10), never more connections. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/infra/db/open-database.ts';
import { LONG_ARRAY } from '../../src/infra/db/postgres.ts';
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

  test('names (prepares) statements, and runs a call with a long array unnamed, planned for its arguments', {
    skip: needsPostgres,
  }, async () => {
    const env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: newEncryptionKey(),
      PUBLIC_BASE_URL: 'https://innkeep.test',
      DB_POOL_SIZE: '1',
    };
    const db = await openDatabase(loadConfig(env));
    try {
      const text = 'SELECT count(*)::int AS n FROM unnest($1::text[], $2::date[]) AS t(a, b)';
      const call = async (length: number) => {
        const items = Array.from({ length }, (_, k) => `x${k}`);
        const nights = items.map(() => '2030-01-01');
        assert.equal((await db.query<{ n: number }>(text, [items, nights])).rows[0]?.n, length);
      };
      // Short arrays, more than five times: past the point where the server may choose a generic plan.
      for (let i = 1; i <= 7; i++) await call(i);
      // Long ones: unnamed, so planned for their own sizes, not run on the named statement's plan.
      for (const length of [LONG_ARRAY + 1, 2000, 500]) await call(length);
      await call(3);
      // One connection: the session's prepared statements are those the adapter named.
      const { rows } = await db.query<{ statement: string; runs: number }>(
        'SELECT statement, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements',
      );
      assert.deepEqual(
        rows.filter((r) => r.statement === text).map((r) => r.runs),
        [8],
        JSON.stringify(rows),
      );
    } finally {
      await db.close();
    }
  });
});
