import type { Executor } from './database.ts';

/**
 * The database's `now()` (the transaction's start, the same for all of it), for a statement to
 * take as a parameter: Citus refuses `now()`, and `timestamptz + interval`, in some places of a
 * statement on a distributed table (a CASE, a RETURNING), where a parameter is fine everywhere.
 */
export async function transactionNow(ex: Executor): Promise<Date> {
  const { rows } = await ex.query<{ now: Date | string }>('SELECT now() AS now');
  const now = rows[0]?.now;
  if (now === undefined) throw new Error('SELECT now() answered no row');
  return new Date(now);
}
