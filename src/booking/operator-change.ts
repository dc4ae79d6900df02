import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { operatorOf } from '../operator-access/operator-auth.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { etagOf, operatorReservationView } from '../reservations/reservation.view.ts';
import { changeReservation, type ReservationChange } from './reservation-change.ts';

/** The hotel as the authority of a command: the key, limited to its hotels. */
export function deskOf(request: FastifyRequest) {
  const principal = operatorOf(request);
  return { kind: 'operator' as const, keyId: principal.id, hotelIds: principal.hotelIds };
}

/** The answer of an operator change: the reservation as it is now, with its ETag. */
export const currentReservation = (row: ReservationRow) => ({
  status: 200,
  headers: { etag: etagOf(row) },
  payload: operatorReservationView(row),
});

/** An operator change of the reservation in the path, through `changeReservation`: the desk as the authority. */
export function changeAsDesk(
  ctx: AppContext,
  request: FastifyRequest & { params: { reservation: string } },
  reply: FastifyReply,
  run: ReservationChange<ReturnType<typeof deskOf>>,
) {
  return changeReservation(
    ctx,
    request,
    reply,
    { authority: deskOf(request), answer: currentReservation },
    run,
  );
}
