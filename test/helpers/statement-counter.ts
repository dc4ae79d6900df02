import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Executor } from '../../src/infra/db/database.ts';

/**
 * Counts the SQL statements an app sends on behalf of one piece of work (a request injected inside
 * `count`), outside and inside transactions, a transaction's BEGIN and COMMIT as two more. Work the
 * app does on its own meanwhile (the webhook worker's polls, housekeeping) is not counted: only
 * statements sent from `count`'s asynchronous context are.
 */
export function statementCounter() {
  const current = new AsyncLocalStorage<string[]>();
  const note = (sql: string) => current.getStore()?.push(sql.replace(/\s+/g, ' ').trim());
  const counted = <E extends Executor>(ex: E): E => ({
    ...ex,
    query: (sql: string, params?: readonly unknown[]) => {
      note(sql);
      return ex.query(sql, params);
    },
  });
  const wrap = (db: Database): Database => ({
    ...counted(db),
    transaction: (fn) =>
      db.transaction((tx) => {
        note('BEGIN');
        return fn(counted(tx)).then((result) => {
          note('COMMIT');
          return result;
        });
      }),
  });
  return {
    wrap,
    /** Runs `work`, answering its result and the statements it sent. */
    async count<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
      const statements: string[] = [];
      const result = await current.run(statements, work);
      return { result, statements };
    },
  };
}
