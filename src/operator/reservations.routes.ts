import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { reservationCodeOrNotFound } from '../booking/commands/authority.ts';
import { cancelReservation } from '../booking/commands/cancel-reservation.ts';
import type { CommandContext } from '../booking/commands/command.ts';
import { modifyReservation } from '../booking/commands/modify-reservation.ts';
import { readReservation } from '../booking/commands/read-reservation.ts';
import { OperatorCancelRequest, OperatorModifyRequest } from '../booking/reservation-requests.schemas.ts';
import { checkinProgress } from '../checkin/checkin-progress.ts';
import type { AppContext } from '../context.ts';
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
          'The reservation with `internalNotes`, `source`, its stay at the front desk and its check-in progress (steps with data masked as in API.md 3.2; never the session id). Header `ETag` carries its version.',
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
      return reply.header('etag', etagOf(row)).send({ ...operatorReservationView(row), checkin });
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
          'The body and rules of the guest’s PATCH (API.md 2.4), plus `force: true` to change the stay of a non-refundable plan and `internalNotes` (string, or null to clear). Honours `If-Match`.',
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
    async (request, reply) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const answer = atomicReply(request, reply, currentReservation);
      const row = await modifyReservation(
        commandContext(ctx, request.log),
        code,
        request.body,
        deskOf(request),
        {
          ...answer,
          ifMatch: request.headers['if-match'],
        },
      );
      return answer.send(row);
    },
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
          'As the guest’s cancel (API.md 2.5), with the fee 0 when `waiveFee` is true. Cancelling a cancelled reservation answers it unchanged. The body is optional.',
        ),
        headers: OperatorChangeHeaders,
        params: OperatorReservationParams,
        body: OperatorCancelRequest,
        response: {
          200: Type.Ref(OperatorReservation),
          ...problemResponses(...AUTH_PROBLEMS, ...WRITE_PROBLEMS, 'not_modifiable'),
        },
      },
      // The body is optional: no body means no reason and the fee as the policy says.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const code = reservationCodeOrNotFound(request.params.reservation);
      const answer = atomicReply(request, reply, currentReservation);
      const row = await cancelReservation(
        commandContext(ctx, request.log),
        code,
        request.body,
        deskOf(request),
        {
          ...answer,
          ifMatch: request.headers['if-match'],
        },
      );
      return answer.send(row);
    },
  );
};
