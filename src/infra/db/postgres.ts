import pg from 'pg';
import { type Database, keepDateText, parseInt8, TYPE_OIDS, withRetries } from './database.ts';

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** How long a request may wait for a connection before failing fast (outage, overload). */
  connectionTimeoutMs?: number;
  statementTimeoutMs?: number;
}

const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === TYPE_OIDS.int8 || oid === TYPE_OIDS.numeric) return parseInt8;
    if (oid === TYPE_OIDS.date) return keepDateText;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

/** A PostgreSQL server through a `pg` pool: the scaled-out deployment. */
export function openPostgresDatabase(options: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs ?? 15_000,
    application_name: 'innkeep',
    types,
  });
  // An idle client losing its server must not crash the process; the next checkout reconnects.
  pool.on('error', () => {});
  const asResult = <T>(r: pg.QueryResult) => ({ rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length });
  return {
    kind: 'postgres',
    query: async <T>(sql: string, params?: readonly unknown[]) =>
      asResult<T>(await pool.query(sql, params as unknown[])),
    transaction: (fn) =>
      withRetries(async () => {
        const client = await pool.connect();
        let broken = false;
        try {
          await client.query('BEGIN');
          const result = await fn({
            query: async <T>(sql: string, params?: readonly unknown[]) =>
              asResult<T>(await client.query(sql, params as unknown[])),
            script: async (sql) => {
              await client.query(sql);
            },
          });
          await client.query('COMMIT');
          return result;
        } catch (error) {
          try {
            await client.query('ROLLBACK');
          } catch {
            broken = true;
          }
          throw error;
        } finally {
          client.release(broken);
        }
      }),
    script: async (sql) => {
      await pool.query(sql);
    },
    ping: async () => {
      await pool.query('SELECT 1');
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
