import { runsAlone, type Transaction } from '../infra/db/database.ts';

/**
 * One transaction-scoped advisory lock per hotel orders calendar changes against the writes that
 * depend on the calendar. A booking or a change of a stay holds it shared while it checks the
 * nights' restrictions and prices and takes the rooms, so bookings never wait for each other; a
 * calendar PATCH holds it exclusively. Without it, a booking could check the nights, a PATCH
 * closing them commit, and the booking commit after it: a stay the hotel had just closed,
 * accepted after the PATCH answered. Row locks cannot do this job: a restriction-only PATCH writes
 * no inventory row, and a new override row does not exist yet to be locked.
 *
 * Taken in a statement of its own, before the calendar is read: under READ COMMITTED a statement
 * sees what committed before it began, so a read in the same statement as the wait could miss the
 * PATCH it waited for. Taken before any inventory row lock, the one order that keeps it
 * deadlock-free. The two-key form lives apart from the single-key migration lock (migrate.ts).
 */
const CALENDAR_LOCK_SPACE = 7_150_042;

const LOCK = {
  shared: 'SELECT 1 AS held FROM pg_advisory_xact_lock_shared($1::int, hashtext($2))',
  exclusive: 'SELECT 1 AS held FROM pg_advisory_xact_lock($1::int, hashtext($2))',
};

/** Holds the hotel's calendar lock until the transaction ends (see above for who takes which mode). */
export async function holdCalendar(tx: Transaction, hotelId: string, mode: keyof typeof LOCK): Promise<void> {
  // The embedded engine runs one transaction at a time: no PATCH can commit in between.
  if (runsAlone(tx)) return;
  // A batch of one: usually a transaction's first statement, so it shares the BEGIN's round trip.
  await tx.batch([{ sql: LOCK[mode], params: [CALENDAR_LOCK_SPACE, hotelId] }]);
}
