import type { Executor } from '../../src/infra/db/database.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import { insertKey, rootPrincipal } from '../../src/operator-access/commands/key-grant.ts';
import type { OperatorKeyHasher } from '../../src/operator-access/key-secret.ts';

/**
 * Stores a key as the command line makes one: by `cli`, outside any request (its audit entry
 * names no request id), in the caller's transaction.
 */
export function insertCliKey(tx: Executor, hash: OperatorKeyHasher, grant: Parameters<typeof insertKey>[3]) {
  return insertKey(tx, hash, rootPrincipal('cli'), grant, SYSTEM_SCOPE);
}
