import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AppContext, requestContext } from '../context.ts';
import { atomicReply, type ReplySpec } from '../infra/idempotency/atomic-reply.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { reservationCodeOrNotFound } from '../reservations/reservation-code.ts';
import type { Authority, ChangeOptions, CommandContext } from './commands/command-context.ts';

/** What a PATCH of a reservation may be refused with, by the guest or the hotel, beside who may ask. */
export const MODIFY_PROBLEMS = [
  'reservation_cancelled',
  'not_modifiable',
  'no_availability',
  'restriction_window',
  'payment_required',
  'payment_failed',
] as const;

/** A reservation command as a route runs it: the reservation's code, who asks, the change options. */
export type ReservationChange<A extends Authority> = (
  command: CommandContext,
  code: string,
  authority: A,
  options: ChangeOptions<ReservationRow>,
) => Promise<ReservationRow>;

/**
 * Runs a change of the reservation in the path through its command, for the guest and the hotel
 * alike: the code read (an impossible one is `404`), `If-Match` honoured, and the answer (`answer`
 * of the changed reservation) stored for `Idempotency-Key` in the command's transaction. Every route
 * that changes a reservation answers through here.
 */
export async function changeReservation<A extends Authority>(
  ctx: AppContext,
  request: FastifyRequest & { params: { reservation: string } },
  reply: FastifyReply,
  as: { authority: A; answer: (row: ReservationRow) => ReplySpec },
  run: ReservationChange<A>,
): Promise<FastifyReply> {
  const code = reservationCodeOrNotFound(request.params.reservation);
  const answer = atomicReply(request, reply, as.answer);
  const ifMatch = request.headers['if-match'];
  const row = await run(requestContext(ctx, request), code, as.authority, { ...answer, ifMatch });
  return answer.send(row);
}
