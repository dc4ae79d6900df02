import type { AppContext } from '../../context.ts';
import { toRfc3339 } from '../../dates/dates.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { checkinRepository as repo } from '../checkin.repository.ts';
import type { CheckinProgress } from '../checkin.schemas.ts';
import { stepViews } from '../session-view.ts';

/**
 * The reservation's check-in as the hotel reads it (docs/api.md §7.2): status, completion and the
 * steps masked as the guest sees them; never the session id, the guest's bearer secret.
 */
export async function readCheckinProgress(
  ctx: Pick<AppContext, 'db'>,
  reservation: ReservationRow,
): Promise<CheckinProgress> {
  const stored = await repo.sessionByReservation(ctx.db, reservation);
  const completedAt = stored?.session.completed_at;
  return {
    status: reservation.checkinStatus,
    ...(completedAt ? { completedAt: toRfc3339(completedAt) } : {}),
    steps: stored ? stepViews(stored.steps) : [],
  };
}
