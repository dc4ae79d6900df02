import type { AppContext } from '../../context.ts';
import type { PaymentDeps } from '../../payments/charge.ts';

/** What every check-in command needs: the app's parts and the request's log. */
export type CheckinContext = Pick<
  AppContext,
  'db' | 'catalog' | 'clock' | 'config' | 'payments' | 'encryptor' | 'signer'
> & { log: PaymentDeps['log'] };
