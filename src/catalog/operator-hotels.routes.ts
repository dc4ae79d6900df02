import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { HotelParams } from '../operator-access/operator.schemas.ts';
import { operatorOf, requireVisibleHotel } from '../operator-access/operator-auth.ts';
import { seesHotel } from '../operator-access/scopes.ts';
import type { Hotel } from './catalog.schema.ts';
import type { CatalogStore } from './catalog-store.ts';
import { HotelList, OperatorHotel } from './operator-hotels.schemas.ts';

const view = (hotel: Hotel) => ({
  id: hotel.id,
  name: hotel.name,
  timezone: hotel.timezone,
  currency: hotel.currency,
});

/**
 * `/operator/hotels` (API.md 7.2): the hotels a key sees. Any valid key may read them: every client
 * needs its hotel ids first, and they reveal nothing the public search does not.
 */
export const hotelsRoutes: FastifyPluginAsyncTypebox<{ ctx: { catalog: CatalogStore } }> = async (
  app,
  { ctx: { catalog } },
) => {
  app.get(
    '/hotels',
    {
      config: { operatorScope: 'any' },
      schema: {
        operationId: 'listOperatorHotels',
        summary: 'List the hotels this key sees',
        ...operatorOperation(
          'any',
          'The hotels of the key’s `hotelIds` (every hotel when it has none), by id.',
        ),
        headers: OperatorHeaders,
        response: { 200: HotelList, ...problemResponses('unauthorized', 'forbidden', 'rate_limited') },
      },
    },
    async (request) => {
      const principal = operatorOf(request);
      const hotels = catalog
        .all()
        .filter((h) => seesHotel(principal, h.id))
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      return { data: hotels.map(view) };
    },
  );

  app.get(
    '/hotels/:hotel',
    {
      config: { operatorScope: 'any' },
      schema: {
        operationId: 'getOperatorHotel',
        summary: 'Read one hotel',
        ...operatorOperation('any', 'A hotel outside the key’s `hotelIds` is `404`, as if it did not exist.'),
        headers: OperatorHeaders,
        params: HotelParams,
        response: {
          200: OperatorHotel,
          ...problemResponses('unauthorized', 'forbidden', 'rate_limited', 'not_found'),
        },
      },
    },
    async (request) => {
      const hotel = catalog.get(request.params.hotel);
      requireVisibleHotel(operatorOf(request), request.params.hotel, hotel !== undefined);
      return view(hotel as Hotel);
    },
  );
};
