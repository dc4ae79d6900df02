import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testFileDatabase } from '../../../test/helpers/test-database.ts';
import type { Database } from './database.ts';
import { groupedInserts } from './grouped-inserts.ts';

/** Rows of a scratch table of this test, on the suite's engine (embedded, or PostgreSQL under test:pg). */
describe('groupedInserts (a group commit of rows written on their own)', () => {
  let db: Database;
  const statements: number[] = [];
  const insert = groupedInserts<{ id: string; n: number }>(async (ex, key, rows) => {
    statements.push(rows.length);
    const values = rows.map((_, i) => `($${2 * i + 2}, $1, $${2 * i + 3})`).join(', ');
    await ex.query(`INSERT INTO grouped_rows (id, k, n) VALUES ${values}`, [
      key,
      ...rows.flatMap((r) => [r.id, r.n]),
    ]);
  }, 8);

  before(async () => {
    db = await testFileDatabase();
    await db.query(
      'CREATE TABLE grouped_rows (id text PRIMARY KEY, k text NOT NULL, n int NOT NULL CHECK (n >= 0))',
    );
  });
  after(() => db.close());

  it('writes a row alone at once when nothing else is being written', async () => {
    statements.length = 0;
    await insert(db, 'a', { id: 'alone', n: 1 });
    assert.deepEqual(statements, [1]);
    const { rows } = await db.query<{ k: string }>(`SELECT k FROM grouped_rows WHERE id = 'alone'`);
    assert.deepEqual(rows, [{ k: 'a' }]);
  });

  it('writes rows asked for together in fewer statements, at most maxRows each, every one committed', async () => {
    statements.length = 0;
    const ids = Array.from({ length: 50 }, (_, i) => `many-${i}`);
    await Promise.all(ids.map((id, n) => insert(db, 'b', { id, n })));
    assert.ok(statements.length < 50, `50 rows in ${statements.length} statements`);
    assert.ok(
      statements.every((n) => n <= 8),
      `statements of ${statements.join(', ')} rows`,
    );
    assert.equal(
      statements.reduce((a, b) => a + b, 0),
      50,
    );
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM grouped_rows WHERE k = 'b'`,
    );
    assert.equal(rows[0]?.n, 50);
  });

  it('fails only the row at fault when a group’s statement fails; the others commit', async () => {
    const asked = Array.from({ length: 12 }, (_, i) => ({ id: `mixed-${i}`, n: i === 5 ? -1 : i }));
    // The first goes alone; the other eleven gather behind it and fail as a group (row 5's CHECK).
    const settled = await Promise.allSettled(asked.map((row) => insert(db, 'c', row)));
    const failed = settled.flatMap((s, i) => (s.status === 'rejected' ? [i] : []));
    assert.deepEqual(failed, [5]);
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM grouped_rows WHERE k = 'c' ORDER BY n`);
    assert.deepEqual(
      rows.map((r) => r.id),
      asked.filter((r) => r.n >= 0).map((r) => r.id),
    );
  });

  it('keeps keys apart: each statement holds the rows of one key', async () => {
    const seen: string[][] = [];
    const byKey = groupedInserts<string>(async (ex, key, rows) => {
      seen.push(rows.map(() => key));
      await ex.query('SELECT 1');
    }, 100);
    await Promise.all(Array.from({ length: 30 }, (_, i) => byKey(db, i % 2 === 0 ? 'x' : 'y', `r${i}`)));
    assert.ok(seen.every((keys) => new Set(keys).size === 1));
    assert.equal(seen.flat().length, 30);
  });
});
