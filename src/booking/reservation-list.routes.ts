import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { HotelParams } from '../operator-access/operator.schemas.ts';
import { operatorOf } from '../operator-access/operator-auth.ts';
import { operatorReservationView } from '../reservations/reservation.view.ts';
import { listReservations, MAX_RANGE_DAYS } from './commands/list-reservations.ts';
import { ReservationListQuery as Query, ReservationListPage } from './reservation-list.schemas.ts';

/** `GET /operator/hotels/{hotel}/reservations` (API.md 7.2): the hotel's reservations, filtered and paged. */
export const reservationListRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/hotels/:hotel/reservations',
    {
      config: { operatorScope: 'reservations:read' },
      schema: {
        operationId: 'listOperatorReservations',
        summary: 'List and search a hotel’s reservations',
        ...operatorOperation(
          'reservations:read',
          [
            'By check-in date, then code, paged with `cursor` (keyset: a reservation made while you page',
            'is never returned twice, and none is skipped). Date filters are inclusive; a range may span',
            `at most ${MAX_RANGE_DAYS} days. \`q\` matches the confirmation code or a part of the guest’s`,
            'first name, last name or e-mail, ignoring case and accents ("joao" finds "João").',
            'The cursor is signed and carries the filters: an edited or foreign cursor is `400`.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        querystring: Query,
        response: {
          200: ReservationListPage,
          ...problemResponses('validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request) => {
      const { rows, nextCursor } = await listReservations(
        ctx,
        operatorOf(request),
        request.params.hotel,
        request.query,
      );
      return { data: rows.map(operatorReservationView), nextCursor };
    },
  );
};
