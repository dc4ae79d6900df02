import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Hotel } from '../../catalog/catalog.schema.ts';
import { type AppContext, type RequestContext, requestContext } from '../../context.ts';
import { problemResponses } from '../../infra/http/problem-schema.ts';
import { AppError } from '../../infra/http/problems.ts';
import { writeSchema } from '../../infra/http/write-schema.ts';
import { OperatorHeaders, operatorOperation } from '../../operator-access/operator.docs.ts';
import { HotelParams } from '../../operator-access/operator.schemas.ts';
import { operatorOf, requireVisibleHotel } from '../../operator-access/operator-auth.ts';
import { createFeed } from './commands/create-feed.ts';
import { createImport } from './commands/create-import.ts';
import { deleteFeed } from './commands/delete-feed.ts';
import { deleteImport } from './commands/delete-import.ts';
import { listFeeds } from './commands/list-feeds.ts';
import { listImports } from './commands/list-imports.ts';
import { readFeed } from './commands/read-feed.ts';
import { syncImportById } from './commands/sync-import.ts';
import {
  CreatedFeed,
  CreateFeedBody,
  CreateImportBody,
  FeedIdParams,
  FeedList,
  IcalDocument,
  IcalFileParams,
  IcalImport,
  ImportList,
  importView,
} from './ical.schemas.ts';

const notFound = () => new AppError('not_found', 'No calendar at this address.');

/** `GET /api/v1/ical/{token}.ics` (docs/api.md §9.1): the secret feed URL, no other credential. */
export const icalRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/:file',
    {
      schema: {
        operationId: 'getIcalFeed',
        summary: 'An iCal feed of a room type’s unsellable nights',
        tags: ['Channels'],
        description: [
          'The URL answered once by `POST /operator/hotels/{hotel}/ical-feeds` is the credential (calendar',
          'platforms fetch it as is). One all-day `VEVENT` (`SUMMARY:Not available`) per run of consecutive',
          'nights from today to the end of the booking window on which the room type has no room left',
          '(sold out, external holds included; `rooms` 0; stop-sell), its `UID` the same while the run',
          'starts on the same night. `ETag` with `If-None-Match` answers `304`. A deleted feed is `404`.',
        ].join(' '),
        params: IcalFileParams,
        produces: ['text/calendar'],
        response: {
          200: {
            description: 'The calendar',
            headers: { ETag: { description: 'the body’s hash', type: 'string' } },
            content: { 'text/calendar': { schema: IcalDocument } },
          },
          304: { description: 'Not modified (the `If-None-Match` tag is the current one)', type: 'null' },
          ...problemResponses('not_found'),
        },
      },
    },
    async (request, reply) => {
      const match = /^([0-9a-z_]+)\.ics$/.exec(request.params.file);
      if (!match) throw notFound();
      const document = await readFeed(requestContext(ctx, request), match[1] as string);
      if (!document) throw notFound();
      reply.header('etag', document.etag).header('cache-control', 'private, no-cache');
      const tags = (request.headers['if-none-match'] ?? '')
        .split(',')
        .map((t) => t.trim().replace(/^W\//, ''));
      if (tags.includes(document.etag) || tags.includes('*')) return reply.code(304).send();
      return reply.type('text/calendar; charset=utf-8').send(document.body);
    },
  );
};

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
      const { feed, url } = await createFeed(requestContext(ctx, request), hotel, request.body.roomTypeId);
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
      const feeds = await listFeeds(requestContext(ctx, request), hotel.id);
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
    remove: (ctx: RequestContext, id: string, hotelIds: readonly string[] | null) => Promise<unknown>,
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
        await remove(requestContext(ctx, request), request.params.id, operatorOf(request).hotelIds);
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
            'unless WEBHOOK_ALLOW_PRIVATE). It is kept encrypted and never shown again: answers show its',
            '`host`. A room type has at most 10 imports, each of another URL (`400` otherwise).',
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
      const row = await createImport(requestContext(ctx, request), hotel, request.body);
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
      return { data: (await listImports(requestContext(ctx, request), hotel.id)).map(importView) };
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
          [
            'Fetches the feed now and answers the import with this fetch as `lastFetch`; a failed fetch',
            '(a feed of more than 10,000 events too) keeps the holds. At most 5 syncs of an import a minute,',
            'then `429 rate_limited` with `Retry-After`.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: FeedIdParams,
        response: { 200: IcalImport, ...problemResponses(...AUTH, 'not_found') },
      },
    },
    async (request) =>
      importView(
        await syncImportById(requestContext(ctx, request), request.params.id, operatorOf(request).hotelIds),
      ),
  );
};
