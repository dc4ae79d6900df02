import type { Database } from '../../infra/db/database.ts';
import { type OperatorKey, keysRepository as repo } from '../keys.repository.ts';
import type { Principal } from '../scopes.ts';

/** Keys the actor may see: all for an unlimited key, else those whose hotels all lie within its own. */
export function listKeys(db: Database, actor: Principal): Promise<OperatorKey[]> {
  return repo.list(db, actor.hotelIds);
}
