import type { FastifyBaseLogger } from 'fastify';
import type { CatalogStore } from './catalog/catalog-store.ts';
import type { Config } from './config.ts';
import type { Clock } from './infra/clock.ts';
import type { Encryptor } from './infra/crypto/encryption.ts';
import type { Database } from './infra/db/database.ts';
import { type Audited, type AuditedRequest, auditScopeOf } from './operator-access/audit-trail.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import type { SigningKeyStore } from './signing/signing-key-store.ts';

/**
 * Everything a request may need, built once at start and shared by the features. It lives apart
 * from `app.ts` so that features depend on it, never on the app that wires them.
 */
export interface AppContext {
  config: Config;
  db: Database;
  /** The catalogue as last loaded from the database. */
  catalog: CatalogStore;
  encryptor: Encryptor;
  payments: PaymentProvider;
  clock: Clock;
  /** Signs check-in sessions; its public keys are the JWKS. */
  signer: SigningKeyStore;
  /** Hashes operator keys with the deployment's secret (derived from DATA_ENCRYPTION_KEY). */
  operatorKeyHasher: (key: string) => Buffer;
}

/**
 * What a command runs with for one request: the app's parts, the request's log (its request id)
 * and its audit scope (who acts, under which request id: what its audit entries name).
 */
export type RequestContext = AppContext & Audited & { log: FastifyBaseLogger };

/** The request-scoped context every route hands to its command: one way, for every feature. */
export function requestContext(
  ctx: AppContext,
  request: AuditedRequest & { log: FastifyBaseLogger },
): RequestContext {
  // Object.assign, not a spread: once per request (docs/architecture.md, "Object spreads on hot paths").
  return Object.assign({}, ctx, { log: request.log, audit: auditScopeOf(request) });
}
