import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { readPriceCalendar } from './commands/read-price-calendar.ts';
import { HotelParams } from './hotel.schemas.ts';
import { PriceCalendar, PriceCalendarQuery } from './price-calendar.schemas.ts';

/** `GET /hotels/{hotel}/calendar` (docs/api.md §9.1): what a date picker shows, night by night. */
export const priceCalendarRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/hotels/:hotel/calendar',
    {
      schema: {
        operationId: 'getPriceCalendar',
        tags: ['booking'],
        summary: 'Lowest price and rules per night for a party',
        description:
          'One entry per night from `from` up to the night before `to` (at most 366): `available` when a room type the party fits has the rooms left that night under a rate plan that sells it (no stop-sell), `fromPrice` the lowest room price of that night among them, all rooms together (what a search’s `nightly` shows for that night), and the arrival rules a date picker needs. Answered from memory like search (up to about a second late). Nights before today are not available and closed to arrival.',
        params: HotelParams,
        querystring: PriceCalendarQuery,
        response: { 200: PriceCalendar, ...problemResponses('validation_error', 'not_found') },
      },
    },
    async (request) => readPriceCalendar(ctx, request.params.hotel, request.query),
  );
};
