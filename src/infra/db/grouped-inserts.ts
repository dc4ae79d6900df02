import { type Database, sqlState } from './database.ts';

interface Waiting<Row> {
  row: Row;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Group<Row> {
  waiting: Array<Waiting<Row>>;
  writing: boolean;
}

/**
 * Rows that many requests write on their own, each committed before its request is answered, as
 * one statement per group of them (a group commit): quotes (issue 36). A row that finds no write
 * of its group (same database handle, same `key`) under way is written at once, alone, so a quiet
 * service waits for nothing; rows that come while one is under way wait for it and then go
 * together, up to `maxRows` a statement. Under load a statement and its commit are paid once per group rather
 * than once per row; on the embedded engine, which runs one statement at a time, that cost was
 * most of a quote.
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
  const groups = new WeakMap<object, Map<string, Group<Row>>>();

  async function writeAlone(db: Database, key: string, item: Waiting<Row>): Promise<void> {
    try {
      await write(db, key, [item.row]);
      item.resolve();
    } catch (error) {
      item.reject(error);
    }
  }

  async function drain(db: Database, key: string, group: Group<Row>): Promise<void> {
    group.writing = true;
    try {
      while (group.waiting.length > 0) {
        const batch = group.waiting.splice(0, maxRows);
        try {
          await write(
            db,
            key,
            batch.map((w) => w.row),
          );
          for (const w of batch) w.resolve();
        } catch (error) {
          if (batch.length > 1 && rowAtFault(error)) for (const w of batch) await writeAlone(db, key, w);
          else for (const w of batch) w.reject(error);
        }
      }
    } finally {
      group.writing = false;
    }
  }

  return (db, key, row) => {
    // By handle, not by the database's identity: a group is written through the handle that
    // started it, and another handle of the same database (a test's second app) may close first.
    const byKey = groups.get(db) ?? new Map<string, Group<Row>>();
    groups.set(db, byKey);
    let group = byKey.get(key);
    if (!group) {
      group = { waiting: [], writing: false };
      byKey.set(key, group);
    }
    const waiting = group;
    return new Promise<void>((resolve, reject) => {
      waiting.waiting.push({ row, resolve, reject });
      if (!waiting.writing) {
        void drain(db, key, waiting).then(() => {
          // An idle group is forgotten, so keys (hotels) come and go without piling up.
          if (!waiting.writing && waiting.waiting.length === 0) byKey.delete(key);
        });
      }
    });
  };
}

/** A failure one row's data may cause: SQLSTATE classes 22 (data exception) and 23 (integrity). */
function rowAtFault(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}
