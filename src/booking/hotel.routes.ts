import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Hotel } from '../catalog/catalog.schema.ts';
import { namer } from '../catalog/catalog-names.ts';
import type { AppContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { AppError } from '../infra/http/problems.ts';
import type { Language } from '../infra/i18n/languages.ts';
import { requestLanguage, withLanguage } from './answer-language.ts';
import { HotelParams, PublicHotel } from './hotel.schemas.ts';

/**
 * The public description of a hotel: what a guest may choose before searching, and the names a
 * page shows for what a search, quote or reservation names by id (rate plans, taxes).
 */
export function publicHotel(hotel: Hotel, lang: Language | null = null): PublicHotel {
  const names = namer(hotel, lang);
  return {
    id: hotel.id,
    name: names.hotel(hotel.name),
    timezone: hotel.timezone,
    currency: hotel.currency,
    checkInTime: hotel.checkInTime,
    checkOutTime: hotel.checkOutTime,
    roomTypes: hotel.roomTypes.map(({ id, name, maxAdults, maxChildren, maxOccupancy }) =>
      names.roomType({ id, name, maxAdults, maxChildren, maxOccupancy }),
    ),
    ratePlans: hotel.ratePlans.map(({ id, name, refundable, prepayment }) =>
      names.ratePlan({ id, name, refundable, prepayment }),
    ),
    services: hotel.services.map(({ id, name, pricing, amount }) =>
      names.service({ id, name, pricing, amount: { amount, currency: hotel.currency } }),
    ),
    taxes: hotel.taxes.map(({ code, name, type }) => names.tax({ code, name, type })),
  };
}

export const hotelRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/hotels/:hotel',
    {
      schema: {
        operationId: 'getHotel',
        tags: ['booking'],
        summary: "A hotel's room types and services",
        description:
          'Read-only and public: the hotel’s name, time zone, currency, check-in and check-out times, its room types with their occupancy limits, its rate plans and taxes (names and terms), and the services a search may ask for (`services` ids) with their prices. Prices of rooms come from a search. Names are in the language of `Accept-Language` where the catalogue gives them per language (`Content-Language` says which), else the plain name.',
        params: HotelParams,
        response: { 200: PublicHotel, ...problemResponses('not_found') },
      },
    },
    async (request, reply) => {
      const hotel = ctx.catalog.get(request.params.hotel);
      if (!hotel) throw new AppError('not_found', `There is no hotel "${request.params.hotel}".`);
      const lang = requestLanguage(request);
      withLanguage(reply, lang);
      return publicHotel(hotel, lang);
    },
  );
};
