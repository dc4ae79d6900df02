import type { CatalogStore } from '../../catalog/catalog-store.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../infra/clock.ts';
import type { Database, WriteOptions } from '../../infra/db/database.ts';
import type { Audited } from '../../operator-access/audit-trail.ts';
import type { PaymentDeps } from '../../payments/charge.ts';

/**
 * What search and quote need: the catalogue, the nights and the quotes, read and written at a time.
 * Named part by part rather than picked from the app's context (context.ts), so booking depends on
 * these parts only, not on everything the app holds (signing keys, the encryptor).
 */
export interface BookingContext {
  db: Database;
  catalog: CatalogStore;
  clock: Clock;
  config: Config;
}

/**
 * What every reservation command needs: those parts, the payment provider, the request's log and
 * its audit scope (each change writes an entry naming who acted).
 */
export type CommandContext = BookingContext & PaymentDeps & Audited;

/**
 * Who runs a reservation command: the guest, holding the reservation's access token, or the hotel,
 * through an operator key limited to some hotels (`null`: every hotel). Commands decide what each
 * may do; `authority.ts` checks it against a reservation.
 */
export type Authority =
  | { kind: 'guest'; accessToken: string }
  | { kind: 'operator'; keyId: string; hotelIds: readonly string[] | null };

/** Options of a command that changes a reservation: the idempotent answer's hook, and `If-Match`. */
export interface ChangeOptions<T> extends WriteOptions<T> {
  ifMatch?: string | undefined;
}
