import type { Executor } from '../../infra/db/database.ts';
import { tellGuestCheckinCompleted } from '../../messages/outbox.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { StepRow } from '../checkin.repository.ts';
import { recordCheckinEvent } from '../checkin-events.ts';

/**
 * With the last step done: the reservation's check-in completes, `checkin.completed` is raised and
 * the guest's `checkin_completed` message queued (names only: identity data stays out of mail).
 */
export async function completeCheckin(
  tx: Executor,
  reservation: ReservationRow,
  steps: ReadonlyArray<Pick<StepRow, 'name' | 'data'>>,
  done: boolean,
) {
  if (!done) return;
  await reservations.setCheckinStatus(tx, reservation, 'completed');
  await recordCheckinEvent(tx, 'checkin.completed', reservation);
  await tellGuestCheckinCompleted(tx, { ...reservation, checkinStatus: 'completed' }, guestNames(steps));
}

/** The names of the guests a check-in recorded: the guest's details, then the companions. */
function guestNames(steps: ReadonlyArray<Pick<StepRow, 'name' | 'data'>>) {
  const name = (g: unknown) => {
    const { firstName, lastName } = (g ?? {}) as { firstName?: unknown; lastName?: unknown };
    return typeof firstName === 'string' && typeof lastName === 'string' ? [{ firstName, lastName }] : [];
  };
  const details = steps.find((s) => s.name === 'guest_details')?.data;
  const companions = steps.find((s) => s.name === 'companions')?.data?.guests;
  return [...name(details), ...(Array.isArray(companions) ? companions.flatMap(name) : [])];
}
