import type { Database, Executor } from '../../src/infra/db/database.ts';

/**
 * Counts the SQL statements an app sends (outside and inside transactions; a transaction's BEGIN
 * and COMMIT count as two more), for tests that hold a request to a statement budget.
 */
export function statementCounter() {
  let statements: string[] = [];
  const counted = <E extends Executor>(ex: E): E => ({
    ...ex,
    query: (sql: string, params?: readonly unknown[]) => {
      statements.push(sql.replace(/\s+/g, ' ').trim());
      return ex.query(sql, params);
    },
  });
  const wrap = (db: Database): Database => ({
    ...counted(db),
    transaction: (fn) =>
      db.transaction((tx) => {
        statements.push('BEGIN');
        return fn(counted(tx)).then((result) => {
          statements.push('COMMIT');
          return result;
        });
      }),
  });
  return {
    wrap,
    /** The statements sent since the last call, and starts counting afresh. */
    take(): string[] {
      const taken = statements;
      statements = [];
      return taken;
    },
  };
}
