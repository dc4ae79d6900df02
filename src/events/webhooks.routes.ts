import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Encryptor } from '../infra/crypto/encryption.ts';
import type { Database } from '../infra/db/database.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { invalid } from '../infra/http/problems.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { type AuditedRequest, auditScopeOf } from '../operator-access/audit-trail.ts';
import { OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { operatorOf } from '../operator-access/operator-auth.ts';
import { createEndpoint } from './commands/create-endpoint.ts';
import { deleteEndpoint } from './commands/delete-endpoint.ts';
import { listEndpoints } from './commands/list-endpoints.ts';
import { endpointAttempts } from './commands/read-endpoint-attempts.ts';
import { readFeed } from './commands/read-feed.ts';
import type { WebhookEndpoint } from './webhook-endpoints.repository.ts';
import {
  AttemptList,
  AttemptsQuery,
  CreatedEndpoint,
  CreateEndpointBody,
  EndpointList,
  EndpointParams,
  FeedPage,
  FeedQuery,
} from './webhooks.schemas.ts';

const AUTH_PROBLEMS = ['unauthorized', 'forbidden', 'rate_limited'] as const;

const view = (e: WebhookEndpoint) => ({
  id: e.id,
  url: e.url,
  events: e.events,
  hotelIds: e.hotelIds,
  description: e.description,
  createdAt: e.createdAt.toISOString(),
});

/** `/operator/events` and `/operator/webhook-endpoints` (API.md 8). */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{
  /** The app's context (context.ts), of which the webhooks use these parts. */
  ctx: {
    db: Database;
    encryptor: Encryptor;
    config: { webhookAllowPrivate: boolean };
    catalog: { get(hotelId: string): unknown };
  };
}> = async (app, { ctx }) => {
  const deps = {
    db: ctx.db,
    encryptor: ctx.encryptor,
    allowPrivate: ctx.config.webhookAllowPrivate,
    knownHotel: (id: string) => ctx.catalog.get(id) !== undefined,
  };
  // A change's deps: the request's audit scope names the caller and the request id (API.md 12).
  const audited = (request: AuditedRequest) => ({ ...deps, audit: auditScopeOf(request) });
  app.get(
    '/events',
    {
      config: { operatorScope: 'reservations:read' },
      schema: {
        operationId: 'listEvents',
        summary: 'Read the event feed',
        ...operatorOperation(
          'reservations:read',
          [
            'Events of the key’s hotels in commit order, oldest first. Poll with `after` = the previous',
            '`nextCursor`: no event is ever skipped, even when transactions commit out of order across',
            'processes (an event appears once every older transaction has ended). `types` filters by',
            'comma-separated types or `prefix.*`. An unknown `after` (or one purged after',
            'EVENT_RETENTION_DAYS) or an unknown type is `400 validation_error`.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        querystring: FeedQuery,
        response: { 200: FeedPage, ...problemResponses('validation_error', ...AUTH_PROBLEMS) },
      },
    },
    async (request) => {
      const { after, types, limit } = request.query;
      const page = await readFeed(deps.db, operatorOf(request).hotelIds, {
        after,
        types,
        limit: limit === undefined ? undefined : Number(limit),
      });
      return {
        data: page.data.map((e) => ({
          id: e.id,
          type: e.type,
          createdAt: e.createdAt.toISOString(),
          hotelId: e.hotelId,
          data: e.data,
        })),
        nextCursor: page.nextCursor,
      };
    },
  );

  app.post(
    '/webhook-endpoints',
    {
      config: { operatorScope: 'webhooks:write' },
      schema: writeSchema({
        operationId: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint',
        ...operatorOperation(
          'webhooks:write',
          [
            'Events matching `events` (types or `prefix.*`) of `hotelIds` (absent = the key’s hotels) are',
            'POSTed to `url`, signed with the `secret` answered here once (see the `webhooks` section of',
            'this document). The URL must be `https` and resolve only to public addresses (`400`',
            'otherwise, unless WEBHOOK_ALLOW_PRIVATE); a hotel the key does not see is `403`.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        body: CreateEndpointBody,
        response: { 201: CreatedEndpoint },
        problems: ['validation_error', ...AUTH_PROBLEMS],
      }),
    },
    async (request, reply) => {
      const { endpoint, secret } = await createEndpoint(audited(request), operatorOf(request), request.body);
      reply.header('cache-control', 'no-store').code(201);
      return { ...view(endpoint), secret };
    },
  );

  app.get(
    '/webhook-endpoints',
    {
      config: { operatorScope: 'webhooks:write' },
      schema: {
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        ...operatorOperation(
          'webhooks:write',
          'The endpoints whose hotels all lie within the key’s, oldest first, never with their secrets.',
        ),
        headers: OperatorHeaders,
        response: { 200: EndpointList, ...problemResponses(...AUTH_PROBLEMS) },
      },
    },
    async (request) => ({ data: (await listEndpoints(deps.db, operatorOf(request))).map(view) }),
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      config: { operatorScope: 'webhooks:write' },
      schema: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        ...operatorOperation(
          'webhooks:write',
          'Deletes the endpoint and the deliveries it still had pending. An endpoint the key does not see is `404`.',
        ),
        headers: OperatorHeaders,
        params: EndpointParams,
        response: {
          204: Type.Null({ description: 'Deleted' }),
          ...problemResponses(...AUTH_PROBLEMS, 'not_found'),
        },
      },
    },
    async (request, reply) => {
      await deleteEndpoint(audited(request), operatorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      config: { operatorScope: 'webhooks:write' },
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'Recent delivery attempts of an endpoint',
        ...operatorOperation(
          'webhooks:write',
          'The endpoint’s most recent attempts, newest first: the event, when, the HTTP status or the error, and how long it took.',
        ),
        headers: OperatorHeaders,
        params: EndpointParams,
        querystring: AttemptsQuery,
        response: {
          200: AttemptList,
          ...problemResponses('validation_error', ...AUTH_PROBLEMS, 'not_found'),
        },
      },
    },
    async (request) => {
      const limit = request.query.limit === undefined ? 50 : Number(request.query.limit);
      if (limit < 1 || limit > 100) throw invalid('/query/limit', 'must be from 1 to 100');
      const attempts = await endpointAttempts(deps.db, operatorOf(request), request.params.id, limit);
      return { data: attempts.map((a) => ({ ...a, attemptedAt: a.attemptedAt.toISOString() })) };
    },
  );
};
