import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { readCheckinProgress } from '../checkin/commands/read-checkin-progress.ts';
import type { AppContext } from '../context.ts';
import { OPTIONAL_BODY, optionalBody } from '../infra/http/openapi-conventions.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import {
  AUTH_PROBLEMS,
  CHANGE_PROBLEMS,
  OperatorHeaders,
  operatorOperation,
} from '../operator-access/operator.docs.ts';
import { OperatorReservationParams } from '../operator-access/operator.schemas.ts';
import { OperatorReservation } from '../reservations/reservation.schemas.ts';
import { etagOf, operatorReservationView } from '../reservations/reservation.view.ts';
import { reservationCodeOrNotFound } from '../reservations/reservation-code.ts';
import { arrive } from './commands/arrive.ts';
import { cancellationChargeNow, cancelReservation } from './commands/cancel-reservation.ts';
import { depart } from './commands/depart.ts';
import { modifyReservation } from './commands/modify-reservation.ts';
import { noShow } from './commands/no-show.ts';
import { readReservation } from './commands/read-reservation.ts';
import { changeAsDesk, deskOf } from './operator-change.ts';
import { OperatorChangeHeaders, OperatorReservationDetail } from './operator-reservations.schemas.ts';
import { MODIFY_PROBLEMS } from './reservation-change.ts';
import {
  ArriveRequest,
  DepartRequest,
  NoShowRequest,
  OperatorCancelRequest,
  OperatorModifyRequest,
} from './reservation-requests.schemas.ts';

/**
 * `/operator/reservations/{reservation}` (API.md 7.2): read, change and cancel a reservation as
 * the hotel, through the same commands as the guest API. Outside the key's hotels: `404`.
 */
export const operatorReservationRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
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
      const checkin = await readCheckinProgress(ctx, row);
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

/**
 * `/operator/reservations/{reservation}/arrive|depart|no-show` (API.md 7.5): what happens to the
 * stay at the front desk. Refusals are `409 not_modifiable` saying why; a room number held by
 * another stay is `409 no_availability` naming the room.
 */
export const stayRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const schema = (operationId: string, summary: string, description: string) => ({
    operationId,
    summary,
    ...operatorOperation('reservations:write', description),
    headers: OperatorChangeHeaders,
    params: OperatorReservationParams,
  });

  app.post(
    '/reservations/:reservation/arrive',
    {
      config: { operatorScope: 'reservations:write' },
      schema: writeSchema({
        ...schema(
          'recordArrival',
          'Record the guest’s arrival',
          'On or after the check-in date and before the check-out date (hotel-local), a confirmed `expected` stay becomes `in_house`. `roomNumbers`: at most `rooms` of them, the room type’s own when the catalogue lists them (else `400`), not held by another stay in house on overlapping nights (`409 no_availability`).',
        ),
        body: ArriveRequest,
        ...OPTIONAL_BODY,
        response: { 200: Type.Ref(OperatorReservation) },
        problems: [...CHANGE_PROBLEMS, 'not_modifiable', 'no_availability'],
      }),
      ...optionalBody,
    },
    (request, reply) =>
      changeAsDesk(ctx, request, reply, (command, code, desk, options) =>
        arrive(command, code, request.body, desk, options),
      ),
  );

  app.post(
    '/reservations/:reservation/depart',
    {
      config: { operatorScope: 'reservations:write' },
      schema: writeSchema({
        ...schema(
          'recordDeparture',
          'Record the guest’s departure',
          'An `in_house` stay becomes `checked_out`. An early departure keeps the booked nights (no automatic refund).',
        ),
        body: DepartRequest,
        ...OPTIONAL_BODY,
        response: { 200: Type.Ref(OperatorReservation) },
        problems: [...CHANGE_PROBLEMS, 'not_modifiable'],
      }),
      ...optionalBody,
    },
    (request, reply) =>
      changeAsDesk(ctx, request, reply, (command, code, desk, options) =>
        depart(command, code, desk, options),
      ),
  );

  app.post(
    '/reservations/:reservation/no-show',
    {
      config: { operatorScope: 'reservations:write' },
      schema: writeSchema({
        ...schema(
          'recordNoShow',
          'Record a no-show',
          'From the day after the check-in date, an `expected` stay becomes `no_show`: every night’s rooms are released and the fee is the rate plan’s penalty (the total for a non-refundable plan), as for a late cancellation, unless `waiveFee`. The reservation becomes `cancelled`, with `cancellation.reason` `no_show`.',
        ),
        body: NoShowRequest,
        ...OPTIONAL_BODY,
        response: { 200: Type.Ref(OperatorReservation) },
        problems: [...CHANGE_PROBLEMS, 'not_modifiable'],
      }),
      ...optionalBody,
    },
    (request, reply) =>
      changeAsDesk(ctx, request, reply, (command, code, desk, options) =>
        noShow(command, code, request.body, desk, options),
      ),
  );
};
