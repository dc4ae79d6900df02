import type { Database } from '../../infra/db/database.ts';
import { webhookEndpointsRepository as repo, type WebhookEndpoint } from '../webhook-endpoints.repository.ts';
import { type Actor, sees } from './webhook-access.ts';

/** The webhook endpoints the key sees. */
export async function listEndpoints(db: Database, actor: Actor): Promise<WebhookEndpoint[]> {
  return (await repo.all(db)).filter((e) => sees(actor, e));
}
