import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { type AuditedRequest, auditScopeOf } from './audit-trail.ts';
import { createKey } from './commands/create-key.ts';
import type { KeysDeps } from './commands/key-grant.ts';
import { listKeys } from './commands/list-keys.ts';
import { revokeKey } from './commands/revoke-key.ts';
import type { OperatorKeyHasher } from './key-secret.ts';
import type { OperatorKey } from './keys.repository.ts';
import { CreatedKey, CreateKeyBody, KeyList, KeyParams } from './keys.schemas.ts';
import { OperatorHeaders, operatorOperation } from './operator.docs.ts';
import { type OperatorAuthenticator, operatorOf } from './operator-auth.ts';

const AUTH_PROBLEMS = ['unauthorized', 'forbidden', 'rate_limited'] as const;

const view = (key: OperatorKey) => ({
  id: key.id,
  name: key.name,
  scopes: key.scopes,
  hotelIds: key.hotelIds,
  createdBy: key.createdBy,
  createdAt: key.createdAt.toISOString(),
  revokedAt: key.revokedAt?.toISOString() ?? null,
});

/** `/operator/keys` (API.md 7.1): create, list and revoke operator keys. */
export const keysRoutes: FastifyPluginAsyncTypebox<{
  /** The app's context (context.ts), of which the keys use these parts. */
  ctx: {
    db: Database;
    operatorKeyHasher: OperatorKeyHasher;
    catalog: { get(hotelId: string): unknown };
    clock: Clock;
  };
  authenticator: OperatorAuthenticator;
}> = async (app, { ctx, authenticator }) => {
  const shared = {
    db: ctx.db,
    hash: ctx.operatorKeyHasher,
    knownHotel: (id: string) => ctx.catalog.get(id) !== undefined,
    now: () => ctx.clock.now(),
  };
  // The key commands' deps for one request: its audit scope names the caller and the request id.
  const deps = (request: AuditedRequest): KeysDeps => ({ ...shared, audit: auditScopeOf(request) });
  app.post(
    '/keys',
    {
      config: { operatorScope: 'keys:write' },
      schema: writeSchema({
        operationId: 'createOperatorKey',
        summary: 'Create an operator key',
        ...operatorOperation(
          'keys:write',
          [
            'Creates a key and answers its secret `key` once: it is stored only as a keyed hash and can',
            'never be shown again. A key never grants more than its creator: every scope and hotel must be',
            'the caller’s own (`403` otherwise), and a hotel-limited caller must list `hotelIds`.',
            'Unknown hotel ids are `400`.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        body: CreateKeyBody,
        response: { 201: CreatedKey },
        problems: AUTH_PROBLEMS,
      }),
    },
    async (request, reply) => {
      const { key, secret } = await createKey(deps(request), operatorOf(request), request.body);
      reply.header('cache-control', 'no-store').code(201);
      return { ...view(key), key: secret };
    },
  );

  app.get(
    '/keys',
    {
      config: { operatorScope: 'keys:write' },
      schema: {
        operationId: 'listOperatorKeys',
        summary: 'List operator keys',
        ...operatorOperation(
          'keys:write',
          [
            'Every key, revoked ones included (with `revokedAt`), oldest first, never with its secret or',
            'hash. A key for every hotel sees all keys; a hotel-limited key sees the keys whose `hotelIds`',
            'all lie within its own.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        response: { 200: KeyList, ...problemResponses(...AUTH_PROBLEMS) },
      },
    },
    async (request) => ({ data: (await listKeys(shared.db, operatorOf(request))).map(view) }),
  );

  app.delete(
    '/keys/:id',
    {
      config: { operatorScope: 'keys:write' },
      schema: {
        operationId: 'revokeOperatorKey',
        summary: 'Revoke an operator key',
        ...operatorOperation(
          'keys:write',
          [
            'Revokes the key: it answers `401` from then on (on other processes within the key cache time).',
            'Revoking a revoked key is a no-op `204`. A key the caller cannot see is `404`; one granting a',
            'scope the caller lacks is `403`. A key may revoke itself.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: KeyParams,
        response: {
          204: Type.Null({ description: 'Revoked' }),
          ...problemResponses(...AUTH_PROBLEMS, 'not_found'),
        },
      },
    },
    async (request, reply) => {
      await revokeKey(deps(request), operatorOf(request), request.params.id);
      authenticator.forget(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
