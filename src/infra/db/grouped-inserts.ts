import { type Database, sqlState } from './database.ts';
import { groupedStatements } from './grouped-statements.ts';

/**
 * Rows that many requests write on their own, each committed before its request is answered, as
 * one statement per group of them (a group commit): quotes (issue 36). A row that finds no write
 * of its group (same database handle, same `key`) under way is written at once, alone, so a quiet
 * service waits for nothing; rows that come while one is under way wait for it and then go
 * together, up to `maxRows` a statement (`grouped-statements.ts`). Under load a statement and its
 * commit are paid once per group rather than once per row; on the embedded engine, which runs one
 * statement at a time, that cost was most of a quote.
 *
 * `write` puts every row of its list in the database in one statement (which commits it, outside
 * any transaction). If a group's statement fails on a row's data (a constraint, a bad value), each
 * row is written again alone, so a row fails only for its own fault and the others still commit;
 * any other failure (the database unavailable, a timeout) is every row's answer at once, rather
 * than each row waiting for it again in turn.
 *
 * `key` keeps rows apart that must not share a statement: a hotel's rows go to that hotel's shard
 * on Citus, so one statement per hotel stays on one shard.
 */
export function groupedInserts<Row>(
  write: (db: Database, key: string, rows: Row[]) => Promise<void>,
  maxRows: number,
): (db: Database, key: string, row: Row) => Promise<void> {
  return groupedStatements<Row, undefined>(
    async (db, key, rows) => {
      await write(db, key, rows);
      return rows.map(() => undefined);
    },
    maxRows,
    rowAtFault,
  );
}

/** A failure one row's data may cause: SQLSTATE classes 22 (data exception) and 23 (integrity). */
function rowAtFault(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}
