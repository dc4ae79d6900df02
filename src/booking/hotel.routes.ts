import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Hotel } from '../catalog/catalog.schema.ts';
import { namer } from '../catalog/catalog-names.ts';
import { nameIn } from '../catalog/localized-name.ts';
import { type PhotoView, photoView } from '../catalog/photos/photo-sizes.ts';
import type { Photo } from '../catalog/selling.schema.ts';
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
  const text = (t: { name: string; names?: Record<string, string> } | undefined) =>
    t === undefined ? undefined : nameIn(t, lang ?? 'en');
  const photos = (list: Photo[] | undefined, alt: string) =>
    list?.map((p) => photoView(p, lang, alt)).filter((p): p is PhotoView => p !== null);
  const hotelName = names.hotel(hotel.name);
  return {
    id: hotel.id,
    name: hotelName,
    timezone: hotel.timezone,
    currency: hotel.currency,
    checkInTime: hotel.checkInTime,
    checkOutTime: hotel.checkOutTime,
    ...defined({
      description: text(hotel.description),
      photos: photos(hotel.photos, hotelName),
      address: text(hotel.address),
      location: hotel.location,
    }),
    roomTypes: hotel.roomTypes.map((rt) => {
      const { id, name, maxAdults, maxChildren, maxOccupancy } = names.roomType(rt);
      return {
        id,
        name,
        maxAdults,
        maxChildren,
        maxOccupancy,
        ...defined({
          description: text(rt.description),
          photos: photos(rt.photos, name),
          sizeM2: rt.sizeM2,
          beds: rt.beds,
          amenities: rt.amenities,
        }),
      };
    }),
    // A hidden plan (API.md 14.1) is for those who have its code: not listed publicly.
    ratePlans: hotel.ratePlans
      .filter((p) => p.hidden !== true)
      .map(({ id, name, refundable, prepayment, deposit, balanceDueDays }) =>
        names.ratePlan({
          id,
          name,
          refundable,
          prepayment,
          ...(prepayment === 'deposit' && deposit ? { deposit, balanceDueDays: balanceDueDays ?? 0 } : {}),
        }),
      ),
    services: hotel.services.map(({ id, name, pricing, amount }) =>
      names.service({ id, name, pricing, amount: { amount, currency: hotel.currency } }),
    ),
    taxes: hotel.taxes.map(({ code, name, type }) => names.tax({ code, name, type })),
  };
}

/** The object without its undefined fields (a field the catalogue does not give is left out). */
function defined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
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
