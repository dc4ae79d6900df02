import type { AppContext } from '../../context.ts';
import type { WriteOptions } from '../../infra/db/database.ts';
import type { PaymentDeps } from '../../payments/charge.ts';

/** What search and quote need: the catalogue, the nights and the quotes, read and written at a time. */
export type BookingContext = Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config'>;

/** What every reservation command needs: the app's parts and the request's log. */
export type CommandContext = Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config' | 'payments'> & {
  log: PaymentDeps['log'];
};

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
