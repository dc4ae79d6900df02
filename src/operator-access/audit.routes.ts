import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '../infra/db/database.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { AuditPage, AuditQuery } from './audit.schemas.ts';
import { readAuditLog } from './commands/read-audit-log.ts';
import { OperatorHeaders, operatorOperation } from './operator.docs.ts';
import { operatorOf } from './operator-auth.ts';

/** `GET /operator/audit-log` (API.md 12): the audit trail, newest first. No route changes an entry. */
export const auditRoutes: FastifyPluginAsyncTypebox<{
  ctx: { db: Database; operatorKeyHasher: (label: string) => Buffer };
}> = async (app, { ctx }) => {
  app.get(
    '/audit-log',
    {
      config: { operatorScope: 'audit:read' },
      schema: {
        operationId: 'listAuditLog',
        summary: 'Read the audit trail',
        ...operatorOperation(
          'audit:read',
          [
            'Every change made through the operator API, the desk, the command lines, a guest or a channel,',
            'and every read of the guest register, newest first, paged with `cursor` as the reservation list.',
            'Each entry was written in the transaction of its change. The caller sees the entries whose',
            '`hotelIds` all lie within its own hotels. Filters: `hotelId`, `actorId`, `action`, `from`, `to`',
            '(inclusive; a date is a UTC day). Entries are kept `AUDIT_RETENTION_DAYS` (default 730);',
            'no endpoint changes or deletes one.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        querystring: AuditQuery,
        response: {
          200: AuditPage,
          ...problemResponses('validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request) => {
      const { entries, nextCursor } = await readAuditLog(ctx, operatorOf(request), request.query);
      return {
        data: entries.map((e) => ({
          id: e.id,
          at: e.at.toISOString(),
          actor: e.actor,
          hotelId: e.hotelId,
          hotelIds: e.hotelIds,
          action: e.action,
          target: e.target,
          ...(e.changes ? { changes: e.changes } : {}),
          ...(e.details ? { details: e.details } : {}),
          requestId: e.requestId,
        })),
        nextCursor,
      };
    },
  );
};
