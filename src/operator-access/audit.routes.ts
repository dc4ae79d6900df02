import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '../infra/db/database.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { AuditPage, AuditQuery } from './audit.schemas.ts';
import { readAuditLog } from './commands/read-audit-log.ts';
import { OperatorHeaders, operatorOperation } from './operator.docs.ts';
import { operatorOf } from './operator-auth.ts';

/** `GET /operator/audit-log` (API.md 7.3): what operators did, newest first. */
export const auditRoutes: FastifyPluginAsyncTypebox<{
  ctx: { db: Database; operatorKeyHasher: (label: string) => Buffer };
}> = async (app, { ctx }) => {
  app.get(
    '/audit-log',
    {
      config: { operatorScope: 'keys:write' },
      schema: {
        operationId: 'listAuditLog',
        summary: 'Read the audit log',
        ...operatorOperation(
          'keys:write',
          [
            'Key creations and revocations and guest register reads, newest first, paged with `cursor`.',
            'Entries hold ids, dates and counts, never identity data. A hotel-limited key sees the entries',
            'whose `hotelIds` all lie within its own.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        querystring: AuditQuery,
        response: { 200: AuditPage, ...problemResponses('unauthorized', 'forbidden', 'rate_limited') },
      },
    },
    async (request) => {
      const { entries, nextCursor } = await readAuditLog(ctx, operatorOf(request), request.query);
      return {
        data: entries.map((e) => ({
          id: e.id,
          keyId: e.actor,
          action: e.action,
          hotelIds: e.hotelIds,
          details: e.details,
          createdAt: e.createdAt.toISOString(),
        })),
        nextCursor,
      };
    },
  );
};
