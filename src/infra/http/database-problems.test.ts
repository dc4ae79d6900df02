import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { testFileDatabase } from '../../../test/helpers/test-database.ts';
import type { Database } from '../db/database.ts';
import { constraintProblem, violatedConstraint } from './database-problems.ts';

/** Runs on the suite's engine: PostgreSQL when DATABASE_URL is set, else PGlite. */
describe('database refusals mapped to problems', () => {
  let db: Database;
  before(async () => {
    db = await testFileDatabase(2);
  });
  after(() => db.close());

  const refusalOf = async (sql: string, params: unknown[]) => {
    try {
      await db.query(sql, params);
    } catch (error) {
      return error;
    }
    assert.fail('the statement should have been refused');
  };

  test('a unique violation names its constraint on this engine', async () => {
    const table = `probe_${randomBytes(6).toString('hex')}`;
    await db.query(`CREATE TABLE ${table} (x integer CONSTRAINT ${table}_x_key UNIQUE)`);
    try {
      await db.query(`INSERT INTO ${table} (x) VALUES (1)`);
      const error = await refusalOf(`INSERT INTO ${table} (x) VALUES ($1)`, [1]);
      assert.equal(violatedConstraint(error), `${table}_x_key`);
      assert.equal(
        constraintProblem(error),
        undefined,
        'a constraint not in the map is not the client’s fault',
      );
    } finally {
      await db.query(`DROP TABLE ${table}`);
    }
  });

  test('the quote that becomes two reservations is quote_already_used', () => {
    const error = Object.assign(
      new Error('duplicate key value violates unique constraint "reservations_quote_id_key"'),
      {
        code: '23505',
      },
    );
    assert.equal(constraintProblem(error)?.code, 'quote_already_used');
  });

  test('a violation the client cannot cause maps to nothing', async () => {
    const error = await refusalOf('SELECT 1/0', []);
    assert.equal(violatedConstraint(error), undefined);
    assert.equal(constraintProblem(error), undefined);
  });
});
