import { isDeepStrictEqual } from 'node:util';
import type { FastifyRequest } from 'fastify';
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

/**
 * Who acts and under which request, for the entries a command writes: handed down explicitly, from
 * the route's `requestContext` through the command to `recordAudit`.
 *
 * Why explicit rather than an AsyncLocalStorage around the handler (as it was): on Node 20 an
 * enabled one puts promise hooks on every promise of the process, about a tenth of the CPU of all
 * that runs while any write is in flight (bench/NOTES.md, 2026-11-28 (6)), and under steady
 * bookings that is always. Why an argument of the writer, and a part of the commands' contexts
 * (`Audited`), rather than something found: the app's context has none, so a route that hands a
 * writing command the app's context instead of the request's does not compile, where a scope
 * looked up at run time would quietly write the entry as the system's without a request id.
 */
export interface AuditScope {
  /** Called only when an entry is written: most requests that build a context write none. */
  actor(): AuditActor;
  requestId: string | null;
}

/** The part of a command's context that says who acts: required of every command that audits. */
export interface Audited {
  audit: AuditScope;
}

/**
 * Outside any request (a periodic job, a migration, a command line): the system acts, no request
 * id. A command line that acts as `cli` says so in the record (`record.actor`).
 */
export const SYSTEM_SCOPE: AuditScope = { actor: () => SYSTEM_ACTOR, requestId: null };

/** What a request's scope reads of a Fastify request. */
export type AuditedRequest = Pick<FastifyRequest, 'id' | 'operator' | 'auditActor'>;

/**
 * A request's scope: its actor (the guard's principal, or the guest or channel a route names) and
 * its id. Built with the request's context, once per request: a closure and a string, no hooks.
 */
export function auditScopeOf(request: AuditedRequest): AuditScope {
  return { actor: () => requestActor(request), requestId: String(request.id) };
}

function requestActor(request: AuditedRequest): AuditActor {
  if (request.auditActor) return request.auditActor;
  if (request.operator) return actorOf(request.operator);
  return SYSTEM_ACTOR;
}

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
  /** Who acted, when the scope's actor is not it (a guest acting through a public route, a command line). */
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
 * so both commit or neither does. The actor (unless the record names it) and the request id come
 * from `scope`: the request's, or `SYSTEM_SCOPE` outside any request.
 */
export async function recordAudit(tx: Executor, scope: AuditScope, record: AuditRecord): Promise<void> {
  const { sql, values } = auditPart(scope, record);
  await tx.query(sql, values);
}

/**
 * The entry `recordAudit` writes, as a write for the statement of the change it records to carry
 * (an event's: `recordEvent(tx, event, [auditPart(ctx.audit, record)])`), in the same transaction.
 */
export function auditPart(scope: AuditScope, record: AuditRecord): WritePart {
  const hotelIds = record.hotelIds === null ? null : [...new Set(record.hotelIds)].sort();
  const changes = record.changes === undefined ? null : changedFields(record.changes);
  return auditEntriesRepository.insertPart({
    id: randomToken('aud_', 12),
    hotelId: hotelIds?.length === 1 ? (hotelIds[0] as string) : null,
    hotelIds,
    actor: record.actor ?? scope.actor(),
    action: record.action,
    target: record.target,
    changes: changes === null || Object.keys(changes).length === 0 ? null : changes,
    details: record.details ?? null,
    requestId: scope.requestId,
  });
}
