import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '../infra/db/database.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { invalid } from '../infra/http/problems.ts';
import { type AuditPosition, auditRepository } from '../operator-access/audit.repository.ts';
import { OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { operatorOf } from '../operator-access/operator-auth.ts';
import { AuditPage, AuditQuery } from './audit.schemas.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/** The cursor is opaque to clients: base64url of the last entry's exact time and id. */
function encodeCursor(position: AuditPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** A cursor that is not one this endpoint issued is a `400`, never a 500. */
function decodeCursor(cursor: string): AuditPosition {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof at === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) &&
      !Number.isNaN(Date.parse(at)) &&
      typeof id === 'string' &&
      /^aud_[0-9a-z]{1,40}$/.test(id)
    ) {
      return { at, id };
    }
  } catch {
    // falls through to the 400 below
  }
  throw invalid('/query/cursor', 'is not a cursor this endpoint issued');
}

/** `GET /operator/audit-log` (API.md 7.3): what operators did, newest first. */
export const auditRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
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
      const limit = request.query.limit === undefined ? DEFAULT_LIMIT : Number(request.query.limit);
      if (limit < 1 || limit > MAX_LIMIT) throw invalid('/query/limit', `must be from 1 to ${MAX_LIMIT}`);
      const from = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor);
      const principal = operatorOf(request);
      // One more than asked tells whether another page exists without a second query.
      const page = await auditRepository.page(db, { within: principal.hotelIds, from, limit: limit + 1 });
      const entries = page.slice(0, limit);
      const more = page.length > limit;
      const last = entries.at(-1);
      return {
        data: entries.map((e) => ({
          id: e.id,
          keyId: e.actor,
          action: e.action,
          hotelIds: e.hotelIds,
          details: e.details,
          createdAt: e.createdAt.toISOString(),
        })),
        nextCursor: more && last ? encodeCursor(last.position) : null,
      };
    },
  );
};
