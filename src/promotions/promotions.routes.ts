import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Hotel } from '../catalog/catalog.schema.ts';
import { type AppContext, requestContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { HotelParams } from '../operator-access/operator.schemas.ts';
import { operatorOf, requireVisibleHotel } from '../operator-access/operator-auth.ts';
import { deletePromotion } from './commands/delete-promotion.ts';
import { listPromotions } from './commands/list-promotions.ts';
import { savePromotion } from './commands/save-promotion.ts';
import { PromotionBody, PromotionList, PromotionParams, PromotionView } from './promotions.schemas.ts';

/** `/operator/hotels/{hotel}/promotions` (API.md 14.1): the hotel's promotion codes. */
export const promotionRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const visibleHotel = (request: Parameters<typeof operatorOf>[0], id: string): Hotel => {
    const hotel = ctx.catalog.get(id);
    requireVisibleHotel(operatorOf(request), id, hotel !== undefined);
    return hotel as Hotel;
  };

  app.get(
    '/hotels/:hotel/promotions',
    {
      config: { operatorScope: 'inventory:write' },
      schema: {
        operationId: 'listPromotions',
        summary: 'List promotion codes',
        ...operatorOperation(
          'inventory:write',
          'The hotel’s promotion codes: those saved through this API and the catalogue’s that none replaces or deletes, by code, each with its uses.',
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        response: {
          200: PromotionList,
          ...problemResponses('unauthorized', 'forbidden', 'rate_limited', 'not_found'),
        },
      },
    },
    async (request) =>
      listPromotions(requestContext(ctx, request), visibleHotel(request, request.params.hotel)),
  );

  app.put(
    '/hotels/:hotel/promotions/:code',
    {
      config: { operatorScope: 'inventory:write' },
      schema: {
        operationId: 'savePromotion',
        summary: 'Create or replace a promotion code',
        ...operatorOperation(
          'inventory:write',
          [
            'Saves the code (matched without regard to case, stored upper-cased); it wins over the catalogue’s',
            'code of the same name and applies at once in every process. Room types and rate plans must be the',
            'hotel’s; a percent is 1–100 and an amountPerNight a positive integer of minor units.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: PromotionParams,
        body: PromotionBody,
        response: {
          200: PromotionView,
          ...problemResponses(
            'validation_error',
            'unauthorized',
            'forbidden',
            'rate_limited',
            'not_found',
            'unsupported_media_type',
            'payload_too_large',
          ),
        },
      },
    },
    async (request) => {
      const hotel = visibleHotel(request, request.params.hotel);
      return savePromotion(
        requestContext(ctx, request),
        operatorOf(request),
        hotel,
        request.params.code,
        request.body,
      );
    },
  );

  app.delete(
    '/hotels/:hotel/promotions/:code',
    {
      config: { operatorScope: 'inventory:write' },
      schema: {
        operationId: 'deletePromotion',
        summary: 'Delete a promotion code',
        ...operatorOperation(
          'inventory:write',
          'The code no longer applies to searches, quotes and changes (a catalogue code stays deleted across reloads); reservations holding it keep it.',
        ),
        headers: OperatorHeaders,
        params: PromotionParams,
        response: {
          204: Type.Null({ description: 'Deleted' }),
          ...problemResponses('unauthorized', 'forbidden', 'rate_limited', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      const hotel = visibleHotel(request, request.params.hotel);
      await deletePromotion(requestContext(ctx, request), operatorOf(request), hotel, request.params.code);
      return reply.code(204).send(null);
    },
  );
};
