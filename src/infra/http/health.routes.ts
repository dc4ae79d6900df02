import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Database } from '../db/database.ts';
import { schemaIsCurrent } from '../db/migrate.ts';
import { sendProblem } from './error-handler.ts';
import { Status } from './health.schemas.ts';
import { Problem } from './problem-schema.ts';

/** Liveness says the process runs; readiness says it can serve (database up, schema current). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'liveness',
        tags: ['service'],
        summary: 'Liveness probe',
        description:
          'Answers `200 {"status":"ok"}` while the process runs and its event loop turns, without touching the database: restart the process when it fails. Never rate limited.',
        response: {
          200: { ...Status, description: 'Alive.' },
        },
      },
      config: { rateLimit: false },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'readiness',
        tags: ['service'],
        summary: 'Readiness probe: 200 only when the database answers and migrations are applied',
        description:
          'Send traffic to this process only while it answers `200`. `503 database_unavailable` (with `Retry-After`) while the database does not answer; `503 service_unavailable` while migrations are not applied or while the process shuts down. Never rate limited.',
        response: {
          200: { ...Status, description: 'Ready: the database answers and migrations are applied.' },
          503: {
            description: '`database_unavailable`, `service_unavailable`: not ready',
            content: { 'application/problem+json': { schema: Type.Ref(Problem) } },
          },
        },
      },
      config: { rateLimit: false },
    },
    async (request, reply) => {
      try {
        if (await schemaIsCurrent(db)) return { status: 'ok' };
        return sendProblem(request, reply, 'service_unavailable', 'Database migrations are not applied yet.');
      } catch {
        return sendProblem(request, reply, 'database_unavailable', 'The database does not answer.', {
          headers: { 'retry-after': '5' },
        });
      }
    },
  );
};
