import type { Encryptor } from '../../infra/crypto/encryption.ts';
import type { Database } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { webhookEndpointsRepository as repo, type WebhookEndpoint } from '../webhook-endpoints.repository.ts';

/** Who acts: an operator key's id and hotels (null = every hotel). */
export interface Actor {
  id: string;
  hotelIds: readonly string[] | null;
}

/** What the webhook endpoint commands use of the app. */
export interface WebhookDeps {
  db: Database;
  encryptor: Encryptor;
  allowPrivate: boolean;
  knownHotel: (id: string) => boolean;
  /** Resolves host names (tests replace it to make a name resolve anywhere). */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
}

/** Whether the key sees the endpoint: all of the endpoint's hotels are the key's (null = every hotel). */
export function sees(actor: Actor, endpoint: WebhookEndpoint): boolean {
  if (actor.hotelIds === null) return true;
  const own = actor.hotelIds;
  return endpoint.hotelIds?.every((h) => own.includes(h)) ?? false;
}

/** The endpoint, or `404` when it does not exist or the key does not see it. */
export async function visibleEndpoint(db: Database, actor: Actor, id: string): Promise<WebhookEndpoint> {
  const endpoint = /^we_[0-9a-z]{1,40}$/.test(id) ? await repo.byId(db, id) : null;
  if (!endpoint || !sees(actor, endpoint))
    throw new AppError('not_found', `No webhook endpoint has the id "${id}".`);
  return endpoint;
}
