import type { Database, Executor } from '../infra/db/database.ts';
import { AppError, invalid } from '../infra/http/problems.ts';
import { auditRepository as audit } from '../operator-access/audit.repository.ts';
import { newKeyId, newOperatorKey, type OperatorKeyHasher } from '../operator-access/key-secret.ts';
import { type OperatorKey, keysRepository as repo } from '../operator-access/keys.repository.ts';
import { grantWithin, hotelsWithin, type Principal, SCOPES, type Scope } from '../operator-access/scopes.ts';

/** The command line and the first-start bootstrap act with every scope on every hotel. */
export function rootPrincipal(id: 'cli' | 'bootstrap'): Principal {
  return { id, scopes: [...SCOPES], hotelIds: null };
}

export interface KeysDeps {
  db: Database;
  hash: OperatorKeyHasher;
  /** Whether a hotel id names a hotel of the catalogue. */
  knownHotel: (hotelId: string) => boolean;
  now: () => Date;
}

export interface NewKeyRequest {
  name: string;
  scopes: Scope[];
  hotelIds?: string[] | null;
}

/**
 * Creates a key for `actor`. Never grant more: every scope and hotel of the new key must be the
 * actor's own, so a hotel-limited key cannot make a key for every hotel (`403 forbidden`).
 */
export async function createKey(
  deps: KeysDeps,
  actor: Principal,
  request: NewKeyRequest,
): Promise<{ key: OperatorKey; secret: string }> {
  const scopes = [...new Set(request.scopes)];
  const hotelIds = request.hotelIds == null ? null : [...new Set(request.hotelIds)];
  const unknown = (hotelIds ?? []).filter((h) => !deps.knownHotel(h));
  if (unknown.length > 0) {
    const [first, ...rest] = unknown.map((h) => ({
      path: `/hotelIds/${(hotelIds ?? []).indexOf(h)}`,
      message: `no hotel has the id "${h}"`,
    }));
    if (first) throw invalid(first.path, first.message, rest);
  }
  if (!grantWithin({ scopes, hotelIds }, actor)) {
    throw new AppError(
      'forbidden',
      hotelIds === null && actor.hotelIds !== null
        ? 'Your key is limited to some hotels: list the new key’s `hotelIds`, all among yours.'
        : 'A key can only grant scopes and hotels that your own key has.',
    );
  }
  return deps.db.transaction((tx) =>
    insertKey(tx, deps.hash, actor, { name: request.name, scopes, hotelIds }),
  );
}

/** Stores a new key and its audit entry in the caller's transaction; the rules are checked already. */
export async function insertKey(
  tx: Executor,
  hash: OperatorKeyHasher,
  actor: Principal,
  grant: { name: string; scopes: Scope[]; hotelIds: string[] | null },
): Promise<{ key: OperatorKey; secret: string }> {
  const secret = newOperatorKey();
  const key = await repo.insert(tx, { id: newKeyId(), ...grant, createdBy: actor.id, hash: hash(secret) });
  await audit.append(tx, {
    actor: actor.id,
    action: 'key.created',
    hotelIds: grant.hotelIds,
    details: { keyId: key.id, name: key.name, scopes: grant.scopes },
  });
  return { key, secret };
}

/** Keys the actor may see: all for an unlimited key, else those whose hotels all lie within its own. */
export function listKeys(db: Database, actor: Principal): Promise<OperatorKey[]> {
  return repo.list(db, actor.hotelIds);
}

/**
 * Revokes a key. A key the actor cannot see (unknown, or reaching hotels outside its own) is
 * `404`; one granting a scope the actor lacks is `403`. Revoking a revoked key changes nothing.
 */
export async function revokeKey(deps: KeysDeps, actor: Principal, id: string): Promise<OperatorKey> {
  return deps.db.transaction(async (tx) => {
    const key = await repo.byId(tx, id, { forUpdate: true });
    if (!key || !hotelsWithin(key.hotelIds, actor.hotelIds)) {
      throw new AppError('not_found', `No operator key has the id "${id}".`);
    }
    if (!grantWithin(key, actor)) {
      throw new AppError('forbidden', 'This key grants scopes your own key lacks; you cannot revoke it.');
    }
    if (key.revokedAt) return key;
    const now = deps.now();
    await repo.revoke(tx, id, now);
    await audit.append(tx, {
      actor: actor.id,
      action: 'key.revoked',
      hotelIds: key.hotelIds,
      details: { keyId: key.id, name: key.name },
    });
    return { ...key, revokedAt: now };
  });
}
