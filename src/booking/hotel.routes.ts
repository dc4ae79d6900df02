import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Hotel } from '../catalog/catalog.schema.ts';
import type { AppContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { AppError } from '../infra/http/problems.ts';
import { HotelParams, PublicHotel } from './hotel.schemas.ts';

/** The public description of a hotel: what a guest may choose before searching. */
export function publicHotel(hotel: Hotel): PublicHotel {
  return {
    id: hotel.id,
    name: hotel.name,
    timezone: hotel.timezone,
    currency: hotel.currency,
    checkInTime: hotel.checkInTime,
    checkOutTime: hotel.checkOutTime,
    roomTypes: hotel.roomTypes.map(({ id, name, maxAdults, maxChildren, maxOccupancy }) => ({
      id,
      name,
      maxAdults,
      maxChildren,
      maxOccupancy,
    })),
    services: hotel.services.map(({ id, name, pricing, amount }) => ({
      id,
      name,
      pricing,
      amount: { amount, currency: hotel.currency },
    })),
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
          'Read-only and public: the hotel’s name, time zone, currency, check-in and check-out times, its room types with their occupancy limits, and the services a search may ask for (`services` ids) with their prices. Prices of rooms come from a search.',
        params: HotelParams,
        response: { 200: PublicHotel, ...problemResponses('not_found') },
      },
    },
    async (request) => {
      const hotel = ctx.catalog.get(request.params.hotel);
      if (!hotel) throw new AppError('not_found', `There is no hotel "${request.params.hotel}".`);
      return publicHotel(hotel);
    },
  );
};
