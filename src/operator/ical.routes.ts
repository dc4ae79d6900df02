import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Hotel } from '../catalog/catalog.schema.ts';
import {
  CreatedFeed,
  CreateFeedBody,
  CreateImportBody,
  FeedIdParams,
  FeedList,
  IcalImport,
  ImportList,
  importView,
} from '../channels/ical/ical.schemas.ts';
import {
  createFeed,
  createImport,
  deleteFeed,
  deleteImport,
  icalRepository,
  syncImportById,
} from '../channels/ical/ical.service.ts';
import type { AppContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { OperatorHeaders, operatorOperation } from './operator.docs.ts';
import { HotelParams } from './operator.schemas.ts';
import { operatorOf, requireVisibleHotel } from './operator-auth.ts';

const AUTH = ['unauthorized', 'forbidden', 'rate_limited'] as const;
const POST_PROBLEMS = ['validation_error', ...AUTH, 'not_found'] as const;

/** `/operator/…/ical-feeds` and `/operator/…/ical-imports` (docs/api.md §9.1). */
export const icalOperatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const hotelOf = (
    request: { params: { hotel: string } },
    principal: Parameters<typeof requireVisibleHotel>[0],
  ) => {
    const hotel = ctx.catalog.get(request.params.hotel);
    requireVisibleHotel(principal, request.params.hotel, hotel !== undefined);
    return hotel as Hotel;
  };

  app.post(
    '/hotels/:hotel/ical-feeds',
    {
      config: { operatorScope: 'inventory:write' },
      schema: writeSchema({
        operationId: 'createIcalFeed',
        summary: 'Create a secret iCal feed URL of a room type',
        ...operatorOperation(
          'inventory:write',
          [
            'A feed of the room type’s unsellable nights for rental platforms to import. The `url` holds',
            'a secret token (160 random bits, stored hashed) and is shown only in this answer.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        body: CreateFeedBody,
        response: { 201: CreatedFeed },
        problems: POST_PROBLEMS,
      }),
    },
    async (request, reply) => {
      const hotel = hotelOf(request, operatorOf(request));
      const { feed, url } = await createFeed(ctx, hotel, request.body.roomTypeId);
      reply.header('cache-control', 'no-store').code(201);
      return { id: feed.id, roomTypeId: feed.roomTypeId, createdAt: feed.createdAt.toISOString(), url };
    },
  );

  app.get(
    '/hotels/:hotel/ical-feeds',
    {
      config: { operatorScope: 'inventory:read' },
      schema: {
        operationId: 'listIcalFeeds',
        summary: 'List the iCal feeds',
        ...operatorOperation('inventory:read', 'The hotel’s feeds, oldest first, without their secret URLs.'),
        headers: OperatorHeaders,
        params: HotelParams,
        response: { 200: FeedList, ...problemResponses(...AUTH, 'not_found') },
      },
    },
    async (request) => {
      const hotel = hotelOf(request, operatorOf(request));
      const feeds = await icalRepository.feedsOf(ctx.db, hotel.id);
      return {
        data: feeds.map((f) => ({
          id: f.id,
          roomTypeId: f.roomTypeId,
          createdAt: f.createdAt.toISOString(),
        })),
      };
    },
  );

  // A feed and an import are deleted alike: by id, within the key's hotels, `204` or `404`.
  const deleteRoute = (
    path: string,
    operationId: string,
    summary: string,
    description: string,
    remove: (ctx: AppContext, id: string, hotelIds: readonly string[] | null) => Promise<unknown>,
  ) =>
    app.delete(
      path,
      {
        config: { operatorScope: 'inventory:write' },
        schema: {
          operationId,
          summary,
          ...operatorOperation('inventory:write', description),
          headers: OperatorHeaders,
          params: FeedIdParams,
          response: {
            204: { description: 'Deleted', type: 'null' },
            ...problemResponses(...AUTH, 'not_found'),
          },
        },
      },
      async (request, reply) => {
        await remove(ctx, request.params.id, operatorOf(request).hotelIds);
        return reply.code(204).send();
      },
    );

  deleteRoute(
    '/ical-feeds/:id',
    'deleteIcalFeed',
    'Delete an iCal feed',
    'Its URL answers `404` from now on.',
    deleteFeed,
  );

  app.post(
    '/hotels/:hotel/ical-imports',
    {
      config: { operatorScope: 'inventory:write' },
      schema: writeSchema({
        operationId: 'createIcalImport',
        summary: 'Import a platform’s iCal feed',
        ...operatorOperation(
          'inventory:write',
          [
            'Each event of the feed holds one room of the room type on each night it covers. The feed is',
            'fetched at once (the answer carries that `lastFetch`) and every ICAL_POLL_SECONDS after.',
            'The URL follows the webhook rules: `https` and public addresses only (`400` otherwise,',
            'unless WEBHOOK_ALLOW_PRIVATE).',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        body: CreateImportBody,
        response: { 201: IcalImport },
        problems: POST_PROBLEMS,
      }),
    },
    async (request, reply) => {
      const hotel = hotelOf(request, operatorOf(request));
      const row = await createImport(ctx, hotel, request.body);
      return reply.code(201).send(importView(row));
    },
  );

  app.get(
    '/hotels/:hotel/ical-imports',
    {
      config: { operatorScope: 'inventory:read' },
      schema: {
        operationId: 'listIcalImports',
        summary: 'List the iCal imports',
        ...operatorOperation(
          'inventory:read',
          'The hotel’s imports, oldest first, each with its last fetch.',
        ),
        headers: OperatorHeaders,
        params: HotelParams,
        response: { 200: ImportList, ...problemResponses(...AUTH, 'not_found') },
      },
    },
    async (request) => {
      const hotel = hotelOf(request, operatorOf(request));
      return { data: (await icalRepository.importsOf(ctx.db, hotel.id)).map(importView) };
    },
  );

  deleteRoute(
    '/ical-imports/:id',
    'deleteIcalImport',
    'Delete an iCal import',
    'Its holds are released at once.',
    deleteImport,
  );

  app.post(
    '/ical-imports/:id/sync',
    {
      config: { operatorScope: 'inventory:write' },
      schema: {
        operationId: 'syncIcalImport',
        summary: 'Fetch an iCal import now',
        ...operatorOperation(
          'inventory:write',
          'Fetches the feed now and answers the import with this fetch as `lastFetch`; a failed fetch keeps the holds.',
        ),
        headers: OperatorHeaders,
        params: FeedIdParams,
        response: { 200: IcalImport, ...problemResponses(...AUTH, 'not_found') },
      },
    },
    async (request) => importView(await syncImportById(ctx, request.params.id, operatorOf(request).hotelIds)),
  );
};
