import type { CatalogStore } from './catalog/catalog.service.ts';
import type { Config } from './config.ts';
import type { Clock } from './infra/clock.ts';
import type { Encryptor } from './infra/crypto/encryption.ts';
import type { Database } from './infra/db/database.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import type { SigningKeyStore } from './signing/signing.service.ts';

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
