import type { Executor } from '../infra/db/database.ts';
import { languageOr } from '../infra/i18n/languages.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import type { Reservation } from '../reservations/reservation.schemas.ts';
import { messageCapsRepository as caps } from './message-caps.repository.ts';

/**
 * The caps on guest messages (API.md 10), so that nobody makes the service mail an address without
 * limit: a reservation's `booking_modified` at most `CHANGES_PER_HOUR` an hour (later changes of
 * that hour are held back and told together, in one message at the end of the hour), and no
 * address more than `GUEST_MESSAGES_PER_ADDRESS_A_DAY` messages in 24 hours from guests' own
 * requests to one hotel (booking, change, cancellation, and the notice to a previous address;
 * beyond it the message is not queued). Per hotel (issue 37): a hotel's guest asks that hotel for
 * mail, and the count stays inside the hotel's rows (on Citus, one shard). Counted in the database in the change's transaction, so the caps hold
 * across processes; a capped message never fails the change.
 */
export const CHANGES_PER_HOUR = 3;
export const GUEST_MESSAGES_PER_ADDRESS_A_DAY = 10;
const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * Takes the hotel's locks of the addresses in one order (sorted, case-insensitive), before any is
 * counted, so two changes that mail the same two addresses never wait for each other.
 */
export async function lockAddresses(
  tx: Executor,
  hotelId: string,
  addresses: readonly string[],
): Promise<void> {
  const sorted = [...new Set(addresses.map((a) => a.toLowerCase()))].sort();
  for (const address of sorted) await caps.lockAddress(tx, hotelId, address);
}

/**
 * Whether the hotel may queue one more message to `address`: always for the hotel's changes; by the
 * daily cap, counted per hotel (issue 37), for a guest's.
 */
export async function addressAllows(
  tx: Executor,
  hotelId: string,
  address: string,
  byGuest: boolean,
): Promise<boolean> {
  if (!byGuest) return true;
  return (await caps.lockAndCountByGuest(tx, hotelId, address, DAY)) < GUEST_MESSAGES_PER_ADDRESS_A_DAY;
}

/** The `booking_modified` message to queue for a change: now, held back to the end of the hour, or none. */
export interface ChangeMessage {
  data: Record<string, unknown>;
  sendAfter: Date | null;
}

/**
 * What a change of `row` queues under the hourly cap: a message at once while the reservation had
 * fewer than `CHANGES_PER_HOUR` in the last hour; past it, one message due an hour after the oldest
 * of them, which later changes join (it tells the newest state, against the state before the first
 * change held back) instead of queuing their own. Null: nothing to queue (joined, or capped).
 */
export async function changeMessage(
  tx: Executor,
  row: ReservationRow,
  told: { reservation: Reservation; previous: Reservation },
  byGuest: boolean,
): Promise<ChangeMessage | null> {
  const to = row.guest.email;
  const recent = await caps.recentChanges(tx, row.hotelId, row.id, HOUR);
  if (recent.count < CHANGES_PER_HOUR || !recent.oldest) {
    return (await addressAllows(tx, row.hotelId, to, byGuest))
      ? { data: { ...told }, sendAfter: null }
      : null;
  }
  if (recent.pending) {
    const { pending } = recent;
    const previous = (pending.data.previous as Reservation | undefined) ?? told.previous;
    const sameAddress = pending.to.toLowerCase() === to.toLowerCase();
    if (sameAddress || (await addressAllows(tx, row.hotelId, to, byGuest))) {
      await caps.fold(tx, row.hotelId, pending.id, {
        data: { ...pending.data, reservation: told.reservation, previous },
        to,
        language: languageOr(row.guest.language),
        byGuest,
      });
    } else {
      // Its new address has had its share today: the held-back news goes to nobody, not to the old one.
      await caps.drop(tx, row.hotelId, pending.id);
    }
    return null;
  }
  if (!(await addressAllows(tx, row.hotelId, to, byGuest))) return null;
  return { data: { ...told }, sendAfter: new Date(recent.oldest.getTime() + HOUR * 1000) };
}
