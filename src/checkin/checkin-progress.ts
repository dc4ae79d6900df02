import { type Static, Type } from '@sinclair/typebox';
import { toRfc3339 } from '../dates/dates.ts';
import type { Executor } from '../infra/db/database.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { checkinRepository as repo } from './checkin.repository.ts';
import { StepView } from './checkin.schemas.ts';
import { stepViews } from './session-view.ts';

export const CheckinProgress = Type.Object(
  {
    status: Type.Union([Type.Literal('not_started'), Type.Literal('in_progress'), Type.Literal('completed')]),
    completedAt: Type.Optional(Type.String({ format: 'date-time', description: 'once completed' })),
    steps: Type.Array(StepView, {
      description:
        'the session’s steps, data masked as the guest sees it (docs/api.md §3.2); empty before a session exists',
    }),
  },
  {
    description:
      'Check-in progress for the hotel (docs/api.md §7.2). Never the session id: it is the guest’s bearer secret.',
  },
);
export type CheckinProgress = Static<typeof CheckinProgress>;

/** The reservation's check-in as the hotel reads it: status, completion and the masked steps. */
export async function checkinProgress(db: Executor, reservation: ReservationRow): Promise<CheckinProgress> {
  const stored = await repo.sessionByReservation(db, reservation.id);
  const completedAt = stored?.session.completed_at;
  return {
    status: reservation.checkinStatus,
    ...(completedAt ? { completedAt: toRfc3339(completedAt) } : {}),
    steps: stored ? stepViews(stored.steps) : [],
  };
}
