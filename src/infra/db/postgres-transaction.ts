import pg from 'pg';
import type { Database, QueryResult, Transaction } from './database.ts';

/** Migrations may run for long (an index on a big table): no client-side timeout for scripts. */
export const NO_CLIENT_TIMEOUT_MS = 2 ** 31 - 1;

/** A `pg` result as the `Executor` interface answers it. */
export const asResult = <T>(r: pg.QueryResult): QueryResult<T> => ({
  rows: r.rows as T[],
  rowCount: r.rowCount ?? r.rows.length,
});

/**
 * `sql` with its parameters `$n` written as literals, for a simple query (`Transaction.batch`):
 * strings escaped as PostgreSQL's own quoting does, numbers, booleans, dates and NULL. The
 * statements given to it are the service's own, with no `$` inside their string constants.
 */
export function inlineParameters(sql: string, params: readonly unknown[] = []): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i >= params.length) throw new Error(`no parameter $${n}`);
    const v = params[i];
    if (v === null || v === undefined) return 'NULL';
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
    if (typeof v === 'string') return pg.escapeLiteral(v);
    if (v instanceof Date) return pg.escapeLiteral(v.toISOString());
    throw new Error(`parameter $${n} cannot be written as a literal`);
  });
}

/** What an attempt needs of the database it runs on (postgres.ts). */
export interface AttemptContext {
  /** A parameterised statement as the pool runs it: named (prepared) or not. */
  statement(text: string, values?: readonly unknown[]): pg.QueryConfig;
  /** The database the transaction belongs to (`Transaction.database`). */
  database: Database;
}

/**
 * One attempt at a transaction on `client`, a connection checked out for it: `fn` run inside
 * BEGIN … COMMIT, rolled back on a throw, and the connection given back (discarded when it
 * failed itself). Retries and end hooks are the caller's (`withRetries`, `withEndHooks`).
 */
export async function attemptTransaction<T>(
  client: pg.PoolClient,
  fn: (tx: Transaction) => Promise<T>,
  onEnd: Transaction['onEnd'],
  { statement, database }: AttemptContext,
): Promise<T> {
  // Set once the connection itself failed (lost, timed out) rather than a statement: such a
  // client cannot roll back and is discarded; the server rolls back when its socket closes.
  let broken = false;
  // A checked-out client has no pool listener: without this one, a connection lost between two
  // statements is an unhandled 'error' event, and that crashes the process.
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  const run = async (query: pg.QueryConfig) => {
    try {
      return await client.query(query);
    } catch (error) {
      if (!(error instanceof pg.DatabaseError)) broken = true;
      throw error;
    }
  };
  // The attempt's notifications, sent with its COMMIT (Transaction.notify).
  const notifications: string[] = [];
  // BEGIN is sent with the first statement: alone before a prepared one, in the same simple
  // query as a batch (Transaction.batch), so a transaction that opens with its lock pays
  // one round trip for both.
  let begun = false;
  const begin = async () => {
    if (begun) return;
    begun = true;
    await run({ text: 'BEGIN' });
  };
  try {
    const result = await fn({
      query: async <R>(sql: string, params?: readonly unknown[]) => {
        await begin();
        return asResult<R>(await run(statement(sql, params)));
      },
      script: async (sql) => {
        await begin();
        await run({ text: sql, query_timeout: NO_CLIENT_TIMEOUT_MS } as pg.QueryConfig);
      },
      batch: async <R>(statements: ReadonlyArray<{ sql: string; params?: readonly unknown[] }>) => {
        const texts = statements.map((s) => inlineParameters(s.sql, s.params));
        if (!begun) {
          begun = true;
          texts.unshift('BEGIN');
        }
        const results = (await run({ text: texts.join('; ') })) as pg.QueryResult | pg.QueryResult[];
        return asResult<R>(Array.isArray(results) ? (results.at(-1) as pg.QueryResult) : results);
      },
      onEnd,
      notify: (channel, payload) => {
        notifications.push(`SELECT pg_notify(${pg.escapeLiteral(channel)}, ${pg.escapeLiteral(payload)})`);
      },
      database,
    });
    // One round trip: the notifications and the COMMIT as one simple query (the protocol
    // runs its statements in order and stops at the first error, so a failed NOTIFY never
    // commits). Without parameters, so no prepared statement; the literals are escaped.
    // Each SELECT has no table: on Citus it runs on the coordinator, as a NOTIFY must.
    // A transaction that sent nothing has nothing to commit.
    if (begun || notifications.length > 0)
      await run({ text: [...(begun ? [] : ['BEGIN']), ...notifications, 'COMMIT'].join('; ') });
    return result;
  } catch (error) {
    if (!broken && begun) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
    }
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}
