import type { Database, Executor } from '../../infra/db/database.ts';
import { type AuditScope, actorOf, recordAudit } from '../audit-trail.ts';
import { newKeyId, newOperatorKey, type OperatorKeyHasher } from '../key-secret.ts';
import { type OperatorKey, keysRepository as repo } from '../keys.repository.ts';
import { type Principal, SCOPES, type Scope } from '../scopes.ts';

/** The command line and the first-start bootstrap act with every scope on every hotel. */
export function rootPrincipal(id: 'cli' | 'bootstrap'): Principal {
  return { id, scopes: [...SCOPES], hotelIds: null };
}

/** What the key commands use of the app. */
export interface KeysDeps {
  db: Database;
  hash: OperatorKeyHasher;
  /** Whether a hotel id names a hotel of the catalogue. */
  knownHotel: (hotelId: string) => boolean;
  now: () => Date;
  /** The request's, whose id the entries name; the system's for the command line. */
  audit: AuditScope;
}

/**
 * Stores a new key and its audit entry in the caller's transaction; the rules are checked already.
 * `audit`: the request's scope, or `SYSTEM_SCOPE` for the first start and the command line.
 */
export async function insertKey(
  tx: Executor,
  hash: OperatorKeyHasher,
  actor: Principal,
  grant: { name: string; scopes: Scope[]; hotelIds: string[] | null },
  audit: AuditScope,
): Promise<{ key: OperatorKey; secret: string }> {
  const secret = newOperatorKey();
  const key = await repo.insert(tx, { id: newKeyId(), ...grant, createdBy: actor.id, hash: hash(secret) });
  await recordAudit(tx, audit, {
    actor: actorOf(actor),
    hotelIds: grant.hotelIds,
    action: 'key.created',
    target: { type: 'key', id: key.id },
    details: { name: key.name, scopes: grant.scopes, hotelIds: grant.hotelIds },
  });
  return { key, secret };
}
