import type { Executor } from '../infra/db/database.ts';

/**
 * One transaction-scoped advisory lock per hotel orders calendar changes against the bookings that
 * read the calendar. A booking or a change of a stay holds it shared while it checks the nights'
 * restrictions and prices and takes the rooms, so bookings never wait for each other; a calendar
 * PATCH holds it exclusively. Without it, a booking could check the nights, a PATCH closing them
 * commit, and the booking commit after it: a stay the hotel had just closed, accepted after the
 * PATCH answered. Row locks cannot do this job: a restriction-only PATCH writes no inventory row,
 * and a new override row does not exist yet to be locked.
 *
 * Both take this lock before any inventory row lock, the one order that keeps them deadlock-free.
 * The two-key form lives apart from the single-key migration lock (migrate.ts).
 */
const CALENDAR_LOCK_SPACE = 7_150_042;

/** Inside a booking's transaction: the hotel's calendar cannot change until it ends. */
export async function holdCalendarShared(tx: Executor, hotelId: string): Promise<void> {
  await tx.query('SELECT 1 AS held FROM pg_advisory_xact_lock_shared($1::int, hashtext($2))', [
    CALENDAR_LOCK_SPACE,
    hotelId,
  ]);
}

/** Inside a calendar change's transaction: waits for the bookings reading the calendar to end. */
export async function holdCalendarExclusive(tx: Executor, hotelId: string): Promise<void> {
  await tx.query('SELECT 1 AS held FROM pg_advisory_xact_lock($1::int, hashtext($2))', [
    CALENDAR_LOCK_SPACE,
    hotelId,
  ]);
}
