import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { migrationFiles } from './migrate.ts';
import { SqlSplitError, splitSqlStatements } from './sql-statements.ts';

describe('splitSqlStatements (migrations sent one statement per query)', () => {
  it('splits on top-level semicolons, trimmed, without empty pieces', () => {
    assert.deepEqual(splitSqlStatements('SELECT 1; SELECT 2;\n\n ;  SELECT 3'), [
      'SELECT 1',
      'SELECT 2',
      'SELECT 3',
    ]);
    assert.deepEqual(splitSqlStatements(''), []);
    assert.deepEqual(splitSqlStatements(' ;\n; '), []);
  });

  it('keeps a semicolon inside strings, quoted identifiers and escape strings', () => {
    assert.deepEqual(splitSqlStatements(`INSERT INTO t VALUES ('a;b', 'it''s; ok'); SELECT 2`), [
      `INSERT INTO t VALUES ('a;b', 'it''s; ok')`,
      'SELECT 2',
    ]);
    assert.deepEqual(splitSqlStatements(`SELECT 1 AS "x;""y"; SELECT 2`), [
      `SELECT 1 AS "x;""y"`,
      'SELECT 2',
    ]);
    assert.deepEqual(splitSqlStatements(`SELECT E'a\\';b'; SELECT 'c\\'; SELECT 3`), [
      `SELECT E'a\\';b'`,
      `SELECT 'c\\'`,
      'SELECT 3',
    ]);
  });

  it('keeps dollar-quoted bodies whole, tagged or not, and tells them from parameters', () => {
    const fn = `CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('x', NEW.id::text); -- a ; in a comment
  RETURN NEW;
END $$`;
    const tagged = `DO $body$ BEGIN EXECUTE 'SELECT $$;$$'; END $body$`;
    assert.deepEqual(splitSqlStatements(`${fn};\n${tagged};SELECT $1::int; SELECT a$b FROM t`), [
      fn,
      tagged,
      'SELECT $1::int',
      'SELECT a$b FROM t',
    ]);
  });

  it('ignores semicolons in comments, nested block comments included; a comment-only piece is dropped', () => {
    assert.deepEqual(
      splitSqlStatements('-- one; two\nSELECT 1; /* a; /* b; */ c; */ SELECT 2;\n-- trailing; note\n'),
      ['-- one; two\nSELECT 1', '/* a; /* b; */ c; */ SELECT 2'],
    );
  });

  it('keeps a BEGIN ATOMIC body (CASE … END inside) as one statement', () => {
    const body = `CREATE FUNCTION g(a int) RETURNS int LANGUAGE sql BEGIN ATOMIC
  SELECT CASE WHEN a > 0 THEN 1 ELSE 0 END;
  SELECT 2;
END`;
    assert.deepEqual(splitSqlStatements(`${body}; SELECT 3`), [body, 'SELECT 3']);
  });

  it('refuses a script whose quoting never ends rather than cutting it wrongly', () => {
    assert.throws(() => splitSqlStatements(`SELECT 'abc; SELECT 2`), SqlSplitError);
    assert.throws(() => splitSqlStatements('DO $$ BEGIN; SELECT 2'), SqlSplitError);
    assert.throws(() => splitSqlStatements('SELECT 1 /* open'), SqlSplitError);
  });

  it('every migration file splits, and no statement of one holds a top-level keyword of two', async () => {
    for (const file of await migrationFiles()) {
      const text = await readFile(new URL(`../../../migrations/${file}`, import.meta.url), 'utf8');
      const statements = splitSqlStatements(text);
      assert.ok(statements.length > 0, file);
      for (const statement of statements) {
        // A statement that begins mid-way through another would start with a stray keyword.
        assert.match(
          statement.replace(/^(--[^\n]*\n|\s)+/, ''),
          /^(CREATE|ALTER|DROP|INSERT|UPDATE|DELETE|DO|COMMENT|WITH|SELECT|SET|TRUNCATE|GRANT)\b/i,
          `${file}: ${statement.slice(0, 80)}`,
        );
      }
    }
  });
});
