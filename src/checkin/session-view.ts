import { toRfc3339 } from '../dates/dates.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import type { SessionRow, StepRow } from './checkin.repository.ts';
import type { SessionView } from './checkin.schemas.ts';
import { balanceDue } from './rules/reservation-facts.ts';
import { nextStep, type SessionStatus } from './rules/step-machine.ts';

/** A cancelled reservation cancels its session, whatever state the session was in. */
export function sessionStatus(session: SessionRow, reservation: ReservationRow): SessionStatus {
  return reservation.status === 'cancelled' ? 'cancelled' : session.status;
}

/** The steps as API.md 3.2 shows them: `data` is what was accepted, stored already masked. */
export function stepViews(steps: readonly StepRow[]): SessionView['steps'] {
  return steps.map((s) => ({
    name: s.name,
    status: s.status,
    required: s.required,
    ...(s.data !== null ? { data: s.data as NonNullable<SessionView['steps'][number]['data']> } : {}),
  }));
}

/** The session object of API.md 3.2: exactly what is returned and what the signature covers. */
export function buildSessionView(input: {
  id: string;
  session: SessionRow;
  reservation: ReservationRow;
  hotel: { id: string; name: string };
  steps: readonly StepRow[];
  expiresAt: Date;
}): SessionView {
  const { session, reservation: r, hotel, steps } = input;
  const status = sessionStatus(session, r);
  const money = (amount: number) => ({ amount, currency: r.currency });
  return {
    id: input.id,
    status,
    expiresAt: toRfc3339(input.expiresAt),
    reservation: {
      id: r.code,
      status: r.status,
      hotel: { id: hotel.id, name: hotel.name },
      checkIn: r.checkIn,
      checkOut: r.checkOut,
      nights: r.stay.nights,
      adults: r.stay.adults,
      children: [...(r.stay.children ?? [])],
      rooms: r.rooms,
      roomType: { id: r.stay.roomType.id, name: r.stay.roomType.name },
      guestName: `${r.guest.firstName} ${r.guest.lastName}`,
      guestEmail: r.guest.email,
      total: money(r.totalAmount),
      balanceDue: money(balanceDue(r)),
    },
    steps: stepViews(steps),
    nextStep: status === 'open' ? nextStep(steps) : null,
    createdAt: toRfc3339(session.created_at),
    updatedAt: toRfc3339(session.updated_at),
    completedAt: session.completed_at ? toRfc3339(session.completed_at) : null,
  };
}
