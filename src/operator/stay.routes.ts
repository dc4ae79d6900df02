import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { arrive, depart, noShow } from '../booking/commands/stay-status.ts';
import { ArriveRequest, DepartRequest, NoShowRequest } from '../booking/reservation-requests.schemas.ts';
import type { AppContext } from '../context.ts';
import { OPTIONAL_BODY, optionalBody } from '../infra/http/openapi-conventions.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { operatorOperation } from './operator.docs.ts';
import { CHANGE_PROBLEMS, changeAsDesk } from './reservations.routes.ts';
import {
  OperatorChangeHeaders,
  OperatorReservation,
  OperatorReservationParams,
} from './reservations.schemas.ts';

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
