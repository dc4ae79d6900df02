import type { Database } from '../../src/infra/db/database.ts';

/** The id the next transaction of the server (PostgreSQL: every database's) will be given. */
export async function nextTransactionId(db: Database): Promise<bigint> {
  const { rows } = await db.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x');
  return BigInt(rows[0]?.x ?? '0');
}

/**
 * Uses up transaction ids until the next one is at least `target`: one DO block committing a
 * transaction per id (about 100,000 a second on either engine, where a statement per id managed
 * 5,000), without waiting for the WAL flush of each empty commit. Ids are the server's, shared
 * with other databases, so the server may be past `target` already; nothing is done then.
 */
export async function burnTransactionIds(db: Database, target: bigint): Promise<void> {
  for (;;) {
    const missing = target - (await nextTransactionId(db));
    if (missing <= 0n) return;
    const batch = missing > 200_000n ? 200_000n : missing;
    // One statement on its own (a script of several would be one transaction block, where the
    // block's COMMITs are refused); synchronous_commit is put back before the block ends.
    await db.script(`DO $$
      DECLARE previous text := current_setting('synchronous_commit');
      BEGIN
        PERFORM set_config('synchronous_commit', 'off', false);
        FOR i IN 1..${batch} LOOP
          PERFORM pg_current_xact_id();
          COMMIT;
        END LOOP;
        PERFORM set_config('synchronous_commit', previous, false);
      END $$`);
  }
}

/** The smallest power of ten above `id`: where the text of transaction ids gains a digit. */
export function nextPowerOfTen(id: bigint): bigint {
  let p = 10n;
  while (p <= id) p *= 10n;
  return p;
}
