import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Hotel } from '../catalog/catalog.schema.ts';
import { type AppContext, requestContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { HotelParams } from '../operator-access/operator.schemas.ts';
import { operatorOf, requireVisibleHotel } from '../operator-access/operator-auth.ts';
import { CalendarPatch, CalendarQuery, CalendarView } from './calendar.schemas.ts';
import { readCalendar } from './commands/read-calendar.ts';
import { updateCalendar } from './commands/update-calendar.ts';

/** `/operator/hotels/{hotel}/calendar` (API.md 7.4): rooms, prices and restrictions by night. */
export const calendarRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/hotels/:hotel/calendar',
    {
      config: { operatorScope: 'inventory:read' },
      schema: {
        operationId: 'getCalendar',
        summary: 'Read the calendar',
        ...operatorOperation(
          'inventory:read',
          [
            'Rooms, rooms sold and left, restrictions and prices per rate plan of every room type for each',
            'night `from`..`to` (inclusive, at most 366 nights): the catalogue with the calendar’s changes.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        querystring: CalendarQuery,
        response: {
          200: CalendarView,
          ...problemResponses('unauthorized', 'forbidden', 'rate_limited', 'not_found'),
        },
      },
    },
    async (request) => {
      const hotel = ctx.catalog.get(request.params.hotel);
      requireVisibleHotel(operatorOf(request), request.params.hotel, hotel !== undefined);
      return readCalendar(requestContext(ctx, request), hotel as Hotel, request.query.from, request.query.to);
    },
  );

  app.patch(
    '/hotels/:hotel/calendar',
    {
      config: { operatorScope: 'inventory:write' },
      schema: writeSchema({
        operationId: 'updateCalendar',
        summary: 'Change rooms, prices and restrictions by night',
        ...operatorOperation(
          'inventory:write',
          [
            'Each update sets fields (`null` clears one) for its room types (and rate plans, for prices)',
            'on the nights `from`..`to` of the days named. All updates apply in one transaction or none;',
            '`rooms` below the rooms already sold on any night is `409 no_availability` naming the nights.',
            'Answers the calendar of the range the updates touch (together at most 366 nights).',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        body: CalendarPatch,
        response: { 200: CalendarView },
        problems: ['unauthorized', 'forbidden', 'rate_limited', 'not_found', 'no_availability'],
      }),
    },
    async (request, reply) => {
      const hotel = ctx.catalog.get(request.params.hotel);
      requireVisibleHotel(operatorOf(request), request.params.hotel, hotel !== undefined);
      const answer = atomicReply(request, reply, (view: CalendarView) => ({ status: 200, payload: view }));
      return answer.send(
        await updateCalendar(requestContext(ctx, request), hotel as Hotel, request.body, answer),
      );
    },
  );
};
