import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inlineParameters } from './postgres-transaction.ts';
import { carriedParts } from './write-part.ts';

describe('carriedParts (writes carried by another statement)', () => {
  it('names each part and numbers its parameters after the carrier’s and the parts before it', () => {
    const { ctes, values } = carriedParts(
      [
        { sql: 'INSERT INTO a (x, y) VALUES ($1, $2)', values: ['x', 'y'] },
        { sql: 'INSERT INTO b (z) SELECT $1 WHERE $1 IS NOT NULL', values: [3] },
      ],
      4,
    );
    assert.deepEqual(ctes, [
      'w0 AS (INSERT INTO a (x, y) VALUES ($5, $6))',
      'w1 AS (INSERT INTO b (z) SELECT $7 WHERE $7 IS NOT NULL)',
    ]);
    assert.deepEqual(values, ['x', 'y', 3]);
  });
});

describe('inlineParameters (Transaction.batch on PostgreSQL)', () => {
  it('writes strings as escaped literals, so a quote or a backslash in an address stays data', () => {
    assert.equal(
      inlineParameters('SELECT lower($1), $2::int, $3, $4', [`o'brien\\x@example.com`, 7, true, null]),
      // pg's escaping writes a string with a backslash as an E'' string, led by a space.
      `SELECT lower( E'o''brien\\\\x@example.com'), 7::int, TRUE, NULL`,
    );
  });

  it('refuses what it cannot write as a literal, and a missing parameter', () => {
    assert.throws(() => inlineParameters('SELECT $1', [[1, 2]]), /cannot be written as a literal/);
    assert.throws(() => inlineParameters('SELECT $1', [Number.NaN]), /cannot be written as a literal/);
    assert.throws(() => inlineParameters('SELECT $2', ['a']), /no parameter \$2/);
  });
});
