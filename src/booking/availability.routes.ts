import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { namer } from '../catalog/catalog-names.ts';
import type { AppContext } from '../context.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { atomicReply } from '../infra/idempotency/atomic-reply.ts';
import { languageHeaders, namedStay, requestLanguage, withLanguage } from './answer-language.ts';
import { QuoteRequest, QuoteResponse, SearchRequest, SearchResponse } from './availability.schemas.ts';
import { createQuote } from './commands/create-quote.ts';
import { searchAvailability } from './commands/search-availability.ts';

/** HTTP for search and quote (docs/api.md §2.1, §2.2): each handler maps the request to one call and back. */
export const availabilityRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/availability/search',
    {
      schema: writeSchema({
        operationId: 'searchAvailability',
        tags: ['booking'],
        summary: 'Search availability and prices for a stay',
        description:
          'One offer per bookable (room type, rate plan). Room types with no offer are listed in `unavailable` with the first reason of occupancy, restricted, sold_out. With no offer at all: 422 `restriction_window` if any room type is restricted, else 409 `no_availability`.',
        body: SearchRequest,
        response: { 200: Type.Ref(SearchResponse) },
        problems: ['no_availability', 'restriction_window'],
      }),
    },
    async (request, reply) => {
      const lang = requestLanguage(request);
      const result = await searchAvailability(ctx, request.body);
      withLanguage(reply, lang);
      // No language asked: every name is the catalogue's plain one, as the answer already holds it.
      if (lang === null) return result;
      const names = namer(ctx.catalog.get(result.hotel.id), lang);
      return {
        ...result,
        hotel: { ...result.hotel, name: names.hotel(result.hotel.name) },
        offers: result.offers.map((o) => ({
          ...o,
          roomType: names.roomType(o.roomType),
          ratePlan: names.ratePlan(o.ratePlan),
        })),
        unavailable: result.unavailable.map((u) => ({ ...u, roomType: names.roomType(u.roomType) })),
      };
    },
  );

  app.post(
    '/quote',
    {
      // A known hotel's quote keeps its Idempotency-Key with that hotel's rows (issue 37).
      config: {
        idempotencyHotel: (request) => {
          const { hotelId } = request.body as { hotelId: string };
          return ctx.catalog.get(hotelId) ? hotelId : null;
        },
      },
      schema: writeSchema({
        operationId: 'createQuote',
        tags: ['booking'],
        summary: 'Price one room type and rate plan, locking the price',
        description:
          'The quote locks the price until `expiresAt` (QUOTE_TTL_SECONDS, default 15 minutes). It does not hold rooms. `total` is the sum of `lines`.',
        body: QuoteRequest,
        response: { 201: Type.Ref(QuoteResponse) },
        problems: ['no_availability', 'restriction_window'],
      }),
    },
    async (request, reply) => {
      // With a key, the stored response commits with the quote (a retry never makes a second one).
      const lang = requestLanguage(request);
      const answer = atomicReply(request, reply, (quote: QuoteResponse) => ({
        status: 201,
        headers: languageHeaders(lang),
        payload: namedStay(ctx.catalog.get(quote.hotelId), quote, lang),
      }));
      return answer.send(await createQuote(ctx, request.body, answer));
    },
  );
};
