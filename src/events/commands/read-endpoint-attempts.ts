import type { Database } from '../../infra/db/database.ts';
import { type AttemptRecord, deliveryRepository } from '../delivery.repository.ts';
import { type Actor, visibleEndpoint } from './webhook-access.ts';

/** The endpoint's latest delivery attempts, newest first; `404` when the key does not see it. */
export async function endpointAttempts(
  db: Database,
  actor: Actor,
  id: string,
  limit: number,
): Promise<AttemptRecord[]> {
  const endpoint = await visibleEndpoint(db, actor, id);
  return deliveryRepository.recentAttempts(db, endpoint.rowId, limit);
}
