import type { Encryptor } from '../infra/crypto/encryption.ts';
import { randomToken } from '../infra/crypto/tokens.ts';
import type { Database } from '../infra/db/database.ts';
import { AppError, invalid } from '../infra/http/problems.ts';
import { OutboundAddressError, resolveOutboundTarget } from '../infra/net/outbound-address.ts';
import { type AttemptRecord, deliveryRepository } from './delivery.repository.ts';
import { typesOfPattern } from './event-types.ts';
import { webhookEndpointsRepository as repo, type WebhookEndpoint } from './webhook-endpoints.repository.ts';

/** Who acts: an operator key's id and hotels (null = every hotel). */
export interface Actor {
  id: string;
  hotelIds: readonly string[] | null;
}

export interface WebhookDeps {
  db: Database;
  encryptor: Encryptor;
  allowPrivate: boolean;
  knownHotel: (id: string) => boolean;
  /** Resolves host names (tests replace it to make a name resolve anywhere). */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
}

/** The encryption context of an endpoint's secret: a ciphertext moved to another endpoint fails. */
export const secretContext = (endpointId: string) => `webhook-secret:${endpointId}`;

/** Whether the key sees the endpoint: all of the endpoint's hotels are the key's (null = every hotel). */
function sees(actor: Actor, endpoint: WebhookEndpoint): boolean {
  if (actor.hotelIds === null) return true;
  const own = actor.hotelIds;
  return endpoint.hotelIds?.every((h) => own.includes(h)) ?? false;
}

/** Event patterns (API.md 8.2): known types or `prefix.*`, each once. */
export function checkEventPatterns(patterns: readonly string[], path: string): string[] {
  const errors = patterns
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => typesOfPattern(p) === null)
    .map(({ p, i }) => ({
      path: `${path}/${i}`,
      message: `"${p}" is not an event type or a \`prefix.*\` of one`,
    }));
  const [first, ...more] = errors;
  if (first) throw invalid(first.path, first.message, more);
  return [...new Set(patterns)];
}

export async function createEndpoint(
  deps: WebhookDeps,
  actor: Actor,
  body: { url: string; events: string[]; hotelIds?: string[] | undefined; description?: string | undefined },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const events = checkEventPatterns(body.events, '/body/events');
  let hotelIds: string[] | null = actor.hotelIds === null ? null : [...actor.hotelIds];
  if (body.hotelIds !== undefined) {
    const outside = body.hotelIds.filter((h) => actor.hotelIds !== null && !actor.hotelIds.includes(h));
    if (outside.length > 0) {
      throw new AppError('forbidden', `This operator key cannot see the hotels ${outside.join(', ')}.`);
    }
    const unknown = body.hotelIds.findIndex((h) => !deps.knownHotel(h));
    if (unknown >= 0)
      throw invalid(`/body/hotelIds/${unknown}`, `no hotel has the id "${body.hotelIds[unknown]}"`);
    hotelIds = [...new Set(body.hotelIds)];
  }
  try {
    await resolveOutboundTarget(body.url, { allowPrivate: deps.allowPrivate, resolve: deps.resolve });
  } catch (error) {
    if (error instanceof OutboundAddressError) throw invalid('/body/url', error.message);
    throw error;
  }
  const id = randomToken('we_', 12);
  const secret = randomToken('whsec_', 24);
  const endpoint = await deps.db.transaction((tx) =>
    repo.insert(tx, {
      id,
      url: body.url,
      events,
      hotelIds,
      description: body.description ?? null,
      createdBy: actor.id,
      secretEncrypted: deps.encryptor.encrypt(secret, secretContext(id)),
    }),
  );
  return { endpoint, secret };
}

export async function listEndpoints(db: Database, actor: Actor): Promise<WebhookEndpoint[]> {
  return (await repo.all(db)).filter((e) => sees(actor, e));
}

/** The endpoint, or `404` when it does not exist or the key does not see it. */
async function visibleEndpoint(db: Database, actor: Actor, id: string): Promise<WebhookEndpoint> {
  const endpoint = /^we_[0-9a-z]{1,40}$/.test(id) ? await repo.byId(db, id) : null;
  if (!endpoint || !sees(actor, endpoint))
    throw new AppError('not_found', `No webhook endpoint has the id "${id}".`);
  return endpoint;
}

/** Deletes the endpoint; deliveries not yet made are dropped with it (an attempt in flight finishes unrecorded). */
export async function deleteEndpoint(db: Database, actor: Actor, id: string): Promise<void> {
  const endpoint = await visibleEndpoint(db, actor, id);
  await db.transaction((tx) => repo.delete(tx, endpoint.rowId));
}

export async function endpointAttempts(
  db: Database,
  actor: Actor,
  id: string,
  limit: number,
): Promise<AttemptRecord[]> {
  const endpoint = await visibleEndpoint(db, actor, id);
  return deliveryRepository.recentAttempts(db, endpoint.rowId, limit);
}
