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
  interface FastifyContextConfig {
    /**
     * Whether the route's handler runs in an audit scope (its entries name the request's actor and
     * id). Default: yes for POST, PUT, PATCH and DELETE, no for GET, HEAD and OPTIONS. A read that
     * writes an entry says `true`; a hot write that never does (search, quote) says `false`.
     */
    auditScope?: boolean;
  }
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
 * A write's handler runs in its audit scope: the actor (the guard's principal, or the guest or
 * channel a route names), read when an entry is written, and the request id. Registered before the
 * routes, it wraps each route's handler (after authentication and body parsing), so the handler and
 * its command see it until the handler's promise settles. Which routes: the route's `auditScope`,
 * by default every POST, PUT, PATCH and DELETE.
 *
 * Why not every request: on Node 20 an enabled AsyncLocalStorage keeps promise hooks on for every
 * promise of the process, about a tenth of a search's CPU (bench/NOTES.md, 2026-11-28 (6)). So the
 * storage is disabled whenever no scoped handler is running, and searches, quotes and reads, which
 * write no entry, never turn it on. A scope ends when its handler settles, not when the response is
 * closed: a client that hangs up mid-write must not leave the entry without its actor. (A handler
 * that answers with `reply` settles when its response has finished; tests under `inject` saw some
 * not settle within seconds, which keeps the hooks on longer, never ends a scope early.)
 */
export const auditScopePlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const wanted = route.config?.auditScope ?? methods.some((m) => !READS.has(m));
    if (!wanted) return;
    const handler = route.handler;
    route.handler = function inAuditScope(this: FastifyInstance, request, reply) {
      const scope: AuditScope = { actor: () => requestActor(request), requestId: String(request.id) };
      inScope += 1;
      let result: unknown;
      try {
        result = scopes.run(scope, () => handler.call(this, request, reply));
      } catch (error) {
        leaveScope();
        throw error;
      }
      if (isThenable(result)) return Promise.resolve(result).finally(leaveScope);
      // A handler that answers from a callback: its scope lasts until the response is done.
      reply.raw.once('close', leaveScope);
      return result;
    } as typeof handler;
  });
});

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function';

/** Handlers running in an audit scope now; the storage (and Node's promise hooks) is off at 0. */
let inScope = 0;

function leaveScope(): void {
  inScope -= 1;
  if (inScope === 0) scopes.disable();
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
