import { randomToken } from '../../infra/crypto/tokens.ts';
import { AppError, invalid } from '../../infra/http/problems.ts';
import { OutboundAddressError, resolveOutboundTarget } from '../../infra/net/outbound-address.ts';
import { type Audited, recordAudit } from '../../operator-access/audit-trail.ts';
import { typesOfPattern } from '../event-types.ts';
import { webhookEndpointsRepository as repo, type WebhookEndpoint } from '../webhook-endpoints.repository.ts';
import { secretContext } from '../webhook-secret.ts';
import type { Actor, WebhookDeps } from './webhook-access.ts';

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

/** Adds a webhook endpoint for the key's hotels (or some of them); its secret is shown once. */
export async function createEndpoint(
  deps: WebhookDeps & Audited,
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
  const endpoint = await deps.db.transaction(async (tx) => {
    const made = await repo.insert(tx, {
      id,
      url: body.url,
      events,
      hotelIds,
      description: body.description ?? null,
      createdBy: actor.id,
      secretEncrypted: deps.encryptor.encrypt(secret, secretContext(id)),
    });
    await recordAudit(tx, deps.audit, {
      hotelIds,
      action: 'webhook.created',
      target: { type: 'webhook', id },
      details: { events },
    });
    return made;
  });
  return { endpoint, secret };
}
