import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { operatorOf } from '../operator-access/operator-auth.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { etagOf, operatorReservationView } from '../reservations/reservation.view.ts';
import { reservationCodeOrNotFound } from '../reservations/reservation-code.ts';
import type { ChangeOptions, CommandContext } from './commands/command-context.ts';

/** The hotel as the authority of a command: the key, limited to its hotels. */
export function deskOf(request: FastifyRequest) {
  const principal = operatorOf(request);
  return { kind: 'operator' as const, keyId: principal.id, hotelIds: principal.hotelIds };
}

export const commandContext = (ctx: AppContext, log: FastifyBaseLogger): CommandContext => ({ ...ctx, log });

/** The answer of an operator change: the reservation as it is now, with its ETag. */
export const currentReservation = (row: ReservationRow) => ({
  status: 200,
  headers: { etag: etagOf(row) },
  payload: operatorReservationView(row),
});

/** A route whose body may be absent: none means the defaults (no reason, the policy's fee…). */
export const optionalBody = {
  preValidation: async (request: { body: unknown }) => {
    request.body ??= {};
  },
};

/**
 * Runs an operator change of the reservation in the path through its command: the desk as the
 * authority, `If-Match` honoured, and the answer stored for `Idempotency-Key` in the command's
 * transaction. Every route that changes a reservation as the hotel answers through here.
 */
export async function changeReservation(
  ctx: AppContext,
  request: FastifyRequest & { params: { reservation: string } },
  reply: FastifyReply,
  run: (
    command: CommandContext,
    code: string,
    desk: ReturnType<typeof deskOf>,
    options: ChangeOptions<ReservationRow>,
  ) => Promise<ReservationRow>,
) {
  const code = reservationCodeOrNotFound(request.params.reservation);
  const answer = atomicReply(request, reply, currentReservation);
  const ifMatch = request.headers['if-match'];
  const row = await run(commandContext(ctx, request.log), code, deskOf(request), { ...answer, ifMatch });
  return answer.send(row);
}
