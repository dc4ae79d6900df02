import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../infra/http/problem-schema.ts';
import { AppError } from '../../infra/http/problems.ts';
import { IcalDocument, IcalFileParams } from './ical.schemas.ts';
import { feedOfToken, uidHost } from './ical.service.ts';
import { feedDocument } from './ical-export.ts';

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
      const match = /^([0-9a-z]+)\.ics$/.exec(request.params.file);
      if (!match) throw notFound();
      const feed = await feedOfToken(ctx, match[1] as string);
      const hotel = feed ? ctx.catalog.get(feed.hotelId) : undefined;
      if (!feed || !hotel) throw notFound();
      const document = await feedDocument(ctx.db, hotel, feed, ctx.clock.now(), uidHost(ctx));
      reply.header('etag', document.etag).header('cache-control', 'private, no-cache');
      const tags = (request.headers['if-none-match'] ?? '')
        .split(',')
        .map((t) => t.trim().replace(/^W\//, ''));
      if (tags.includes(document.etag) || tags.includes('*')) return reply.code(304).send();
      return reply.type('text/calendar; charset=utf-8').send(document.body);
    },
  );
};
