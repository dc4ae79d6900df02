import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { reservationCodeOrNotFound } from '../booking/commands/authority.ts';
import { cancellationChargeNow, cancelReservation } from '../booking/commands/cancel-reservation.ts';
import type { ChangeOptions, CommandContext } from '../booking/commands/command-context.ts';
import { modifyReservation } from '../booking/commands/modify-reservation.ts';
import { readReservation } from '../booking/commands/read-reservation.ts';
import { OperatorCancelRequest, OperatorModifyRequest } from '../booking/reservation-requests.schemas.ts';
import { checkinProgress } from '../checkin/checkin-progress.ts';
import type { AppContext } from '../context.ts';
import { OPTIONAL_BODY } from '../infra/http/openapi-conventions.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { etagOf, operatorReservationView } from '../reservations/reservation.view.ts';
import { operatorOperation } from './operator.docs.ts';
import { operatorOf } from './operator-auth.ts';
import {
  OperatorChangeHeaders,
  OperatorHeaders,
  OperatorReservation,
  OperatorReservationDetail,
  OperatorReservationParams,
} from './reservations.schemas.ts';

export const AUTH_PROBLEMS = ['unauthorized', 'forbidden', 'rate_limited', 'not_found'] as const;
export const WRITE_PROBLEMS = [
  'precondition_failed',
  'idempotency_key_reused',
  'idempotency_in_progress',
  'unsupported_media_type',
  'payload_too_large',
] as const;

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

/**
 * `/operator/reservations/{reservation}` (API.md 7.2): read, change and cancel a reservation as
 * the hotel, through the same commands as the guest API. Outside the key's hotels: `404`.
 */
export const reservationsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/reservations/:reservation',
    {
      config: { operatorScope: 'reservations:read' },
      schema: {
        operationId: 'getOperatorReservation',
        summary: 'Read a reservation as the hotel',
        ...operatorOperation(
          'reservations:read',
          'The reservation with `internalNotes`, `source`, its stay at the front desk, its check-in progress (steps with data masked as in docs/api.md §3.2; never the session id) and `cancellationCharge`: what cancelling it now would charge (fee, refund, due), or null when it cannot be cancelled. Header `ETag` carries its version.',
        ),
        headers: OperatorHeaders,
        params: OperatorReservationParams,
        response: { 200: OperatorReservationDetail, ...problemResponses(...AUTH_PROBLEMS) },
      },
    },
    async (request, reply) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const row = await readReservation(ctx, code, deskOf(request));
      const checkin = await checkinProgress(ctx.db, row);
      const cancellationCharge = cancellationChargeNow(row, ctx.clock.now());
      return reply
        .header('etag', etagOf(row))
        .send({ ...operatorReservationView(row), checkin, cancellationCharge });
    },
  );

  app.patch(
    '/reservations/:reservation',
    {
      config: { operatorScope: 'reservations:write' },
      schema: {
        operationId: 'modifyOperatorReservation',
        summary: 'Change a reservation as the hotel',
        ...operatorOperation(
          'reservations:write',
          'The body and rules of the guest’s PATCH (docs/api.md §2.4), plus `force: true` to change the stay of a non-refundable plan and `internalNotes` (string, or null to clear). Honours `If-Match`.',
        ),
        headers: OperatorChangeHeaders,
        params: OperatorReservationParams,
        body: OperatorModifyRequest,
        response: {
          200: Type.Ref(OperatorReservation),
          ...problemResponses(
            ...AUTH_PROBLEMS,
            ...WRITE_PROBLEMS,
            'reservation_cancelled',
            'not_modifiable',
            'no_availability',
            'restriction_window',
            'payment_required',
            'payment_failed',
          ),
        },
      },
    },
    (request, reply) =>
      changeReservation(ctx, request, reply, (command, code, desk, options) =>
        modifyReservation(command, code, request.body, desk, options),
      ),
  );

  app.post(
    '/reservations/:reservation/cancel',
    {
      config: { operatorScope: 'reservations:write' },
      schema: {
        operationId: 'cancelOperatorReservation',
        summary: 'Cancel a reservation as the hotel',
        ...operatorOperation(
          'reservations:write',
          'As the guest’s cancel (docs/api.md §2.5), with the fee 0 when `waiveFee` is true. Cancelling a cancelled reservation answers it unchanged. The body is optional.',
        ),
        headers: OperatorChangeHeaders,
        params: OperatorReservationParams,
        body: OperatorCancelRequest,
        ...OPTIONAL_BODY,
        response: {
          200: Type.Ref(OperatorReservation),
          ...problemResponses(...AUTH_PROBLEMS, ...WRITE_PROBLEMS, 'not_modifiable'),
        },
      },
      ...optionalBody,
    },
    (request, reply) =>
      changeReservation(ctx, request, reply, (command, code, desk, options) =>
        cancelReservation(command, code, request.body, desk, options),
      ),
  );
};
