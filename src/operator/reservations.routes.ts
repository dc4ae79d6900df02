import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { reservationCodeOrNotFound } from '../booking/commands/authority.ts';
import { cancellationChargeNow, cancelReservation } from '../booking/commands/cancel-reservation.ts';
import { modifyReservation } from '../booking/commands/modify-reservation.ts';
import { readReservation } from '../booking/commands/read-reservation.ts';
import { changeReservation, MODIFY_PROBLEMS, type ReservationChange } from '../booking/reservation-change.ts';
import { OperatorCancelRequest, OperatorModifyRequest } from '../booking/reservation-requests.schemas.ts';
import { checkinProgress } from '../checkin/checkin-progress.ts';
import type { AppContext } from '../context.ts';
import { OPTIONAL_BODY, optionalBody } from '../infra/http/openapi-conventions.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
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
/** What a change of a reservation by the hotel may be refused with, beside the write's own answers. */
export const CHANGE_PROBLEMS = [...AUTH_PROBLEMS, 'precondition_failed'] as const;

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
      schema: writeSchema({
        operationId: 'modifyOperatorReservation',
        summary: 'Change a reservation as the hotel',
        ...operatorOperation(
          'reservations:write',
          'The body and rules of the guest’s PATCH (docs/api.md §2.4), plus `force: true` to change the stay of a non-refundable plan and `internalNotes` (string, or null to clear). Honours `If-Match`.',
        ),
        headers: OperatorChangeHeaders,
        params: OperatorReservationParams,
        body: OperatorModifyRequest,
        response: { 200: Type.Ref(OperatorReservation) },
        problems: [...CHANGE_PROBLEMS, ...MODIFY_PROBLEMS],
      }),
    },
    (request, reply) =>
      changeAsDesk(ctx, request, reply, (command, code, desk, options) =>
        modifyReservation(command, code, request.body, desk, options),
      ),
  );

  app.post(
    '/reservations/:reservation/cancel',
    {
      config: { operatorScope: 'reservations:write' },
      schema: writeSchema({
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
        response: { 200: Type.Ref(OperatorReservation) },
        problems: [...CHANGE_PROBLEMS, 'not_modifiable'],
      }),
      ...optionalBody,
    },
    (request, reply) =>
      changeAsDesk(ctx, request, reply, (command, code, desk, options) =>
        cancelReservation(command, code, request.body, desk, options),
      ),
  );
};
