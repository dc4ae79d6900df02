import { AsyncLocalStorage } from 'node:async_hooks';
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { randomToken } from '../infra/crypto/tokens.ts';
import type { Executor } from '../infra/db/database.ts';
import type { WritePart } from '../infra/db/write-part.ts';
import { type AuditActor, auditEntriesRepository } from './audit-entries.repository.ts';
import type { Principal } from './scopes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who acts when it is not the operator credential (a guest, a channel), set by the route's guard. */
    auditActor?: AuditActor;
  }
}

/** The service acting on its own (a periodic job, a migration). */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: 'system', name: 'Innkeep' };

/** The audit actor of an operator principal: a person, a key, or the command line / first start. */
export function actorOf(principal: Principal): AuditActor {
  if (principal.kind === 'staff')
    return { type: 'staff', id: principal.id, name: principal.name ?? principal.id };
  if (principal.id === 'cli') return { type: 'system', id: 'cli', name: principal.name ?? 'Command line' };
  if (principal.id === 'bootstrap') return { type: 'system', id: 'bootstrap', name: 'First start' };
  return { type: 'key', id: principal.id, name: principal.name ?? principal.id };
}

/** Who acts and under which request, for every entry written while it runs. */
export interface AuditScope {
  actor: () => AuditActor;
  requestId: string | null;
}

const scopes = new AsyncLocalStorage<AuditScope>();

function requestActor(request: FastifyRequest): AuditActor {
  if (request.auditActor) return request.auditActor;
  if (request.operator) return actorOf(request.operator);
  return SYSTEM_ACTOR;
}

/**
 * Every request's handler runs in its audit scope: the actor (the guard's principal, or the guest or
 * channel a route names) read when an entry is written, and the request id. Registered before the
 * routes, it runs after authentication and body parsing, so the handler and its command see it.
 */
export const auditScopePlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preHandler', (request, _reply, done) => {
    scopes.run({ actor: () => requestActor(request), requestId: String(request.id) }, done);
  });
});

/** What a command records of a change it made. */
export interface AuditRecord {
  /** The hotels the change concerns: one, several, or null for every hotel. */
  hotelIds: readonly string[] | null;
  /** `reservation.modified`, `calendar.updated`, `key.created`, … */
  action: string;
  target: { type: string; id: string };
  /** `{ field: [before, after] }`; fields that did not change are dropped. */
  changes?: Record<string, [unknown, unknown]> | undefined;
  /** Ids, dates and counts; never identity data. */
  details?: Record<string, unknown> | undefined;
  /** Who acted, when the scope's actor is not it (a guest acting through a public route). */
  actor?: AuditActor | undefined;
}

/** Only the fields that changed. */
export function changedFields(
  changes: Record<string, [unknown, unknown]>,
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const [field, [before, after]] of Object.entries(changes)) {
    if (!isDeepStrictEqual(before ?? null, after ?? null)) out[field] = [before ?? null, after ?? null];
  }
  return out;
}

/**
 * The one audit writer (API.md 12): an entry of the change, in the change's own transaction `tx`,
 * so both commit or neither does. The actor and request id come from the scope the request (or the
 * command line, or a channel job) runs in; outside any scope the actor is the system.
 */
export async function recordAudit(tx: Executor, record: AuditRecord): Promise<void> {
  const { sql, values } = auditPart(record);
  await tx.query(sql, values);
}

/**
 * The entry `recordAudit` writes, as a write for the statement of the change it records to carry
 * (an event's: `recordEvent(tx, event, [auditPart(record)])`), in the same transaction.
 */
export function auditPart(record: AuditRecord): WritePart {
  const scope = scopes.getStore();
  const hotelIds = record.hotelIds === null ? null : [...new Set(record.hotelIds)].sort();
  const changes = record.changes === undefined ? null : changedFields(record.changes);
  return auditEntriesRepository.insertPart({
    id: randomToken('aud_', 12),
    hotelId: hotelIds?.length === 1 ? (hotelIds[0] as string) : null,
    hotelIds,
    actor: record.actor ?? scope?.actor() ?? SYSTEM_ACTOR,
    action: record.action,
    target: record.target,
    changes: changes === null || Object.keys(changes).length === 0 ? null : changes,
    details: record.details ?? null,
    requestId: scope?.requestId ?? null,
  });
}
