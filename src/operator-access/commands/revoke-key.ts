import { AppError } from '../../infra/http/problems.ts';
import { actorOf, recordAudit } from '../audit-trail.ts';
import { type OperatorKey, keysRepository as repo } from '../keys.repository.ts';
import { grantWithin, hotelsWithin, type Principal } from '../scopes.ts';
import type { KeysDeps } from './key-grant.ts';

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
    await recordAudit(tx, deps.audit, {
      actor: actorOf(actor),
      hotelIds: key.hotelIds,
      action: 'key.revoked',
      target: { type: 'key', id: key.id },
      details: { name: key.name },
    });
    return { ...key, revokedAt: now };
  });
}
