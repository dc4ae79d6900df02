import type { Executor } from '../infra/db/database.ts';
import { type PaymentProvider, RefundRefused } from './payment-provider.ts';
import { type PendingRefund, paymentLedger } from './payments.repository.ts';

/** How long one refund attempt may hold its claim before another process may try it. */
export const ATTEMPT_LEASE_MS = 2 * 60_000;

export type RefundAttempt =
  | { outcome: 'made'; providerRef: string }
  | { outcome: 'retry'; error: string; attempts: number }
  | { outcome: 'refused'; error: string; attempts: number }
  | { outcome: 'not_due' };

/**
 * One attempt at a pending refund of the ledger (migration 040). Made: the row gets the provider's
 * reference. Otherwise it stays `pending` with the error and its next attempt `retryBaseMs × 5^n`
 * ahead (a refusal for good: due now, for the payment worker to mark `failed` and tell the hotel).
 * The row's own placeholder reference is the provider's idempotency key: a retried attempt of one
 * refund never refunds twice.
 */
export async function attemptRefund(
  db: Executor,
  deps: { payments: PaymentProvider; log: { error(obj: unknown, msg: string): void } },
  id: number,
  reference: string,
  { retryBaseMs = 60_000, now = new Date() }: { retryBaseMs?: number; now?: Date } = {},
): Promise<RefundAttempt> {
  const pending = await paymentLedger.claimPending(db, id, now, ATTEMPT_LEASE_MS);
  if (!pending) return { outcome: 'not_due' };
  return attemptClaimedRefund(db, deps, pending, reference, { retryBaseMs });
}

/** The attempt of a refund already claimed (`claimPending`, `claimDuePending`): as `attemptRefund`. */
export async function attemptClaimedRefund(
  db: Executor,
  deps: { payments: PaymentProvider; log: { error(obj: unknown, msg: string): void } },
  pending: PendingRefund,
  reference: string,
  { retryBaseMs = 60_000 }: { retryBaseMs?: number } = {},
): Promise<Exclude<RefundAttempt, { outcome: 'not_due' }>> {
  const id = pending.id;
  try {
    const made = await deps.payments.refund({
      providerRef: pending.chargeRef,
      amount: pending.amount,
      currency: pending.currency,
      reference,
      idempotencyKey: `innkeep:${pending.providerRef}`,
    });
    await paymentLedger.settleRefund(db, id, { status: 'succeeded', providerRef: made.providerRef });
    return { outcome: 'made', providerRef: made.providerRef };
  } catch (err) {
    const refused = err instanceof RefundRefused;
    const error = refused ? err.message : `the provider did not answer: ${(err as Error).message}`;
    const delay = refused ? 0 : retryBaseMs * 5 ** Math.min(pending.attempts, 6);
    await paymentLedger.settleRefund(db, id, {
      status: 'pending',
      error,
      nextAttemptAt: new Date(Date.now() + delay),
    });
    deps.log.error(
      { refund: id, error },
      refused ? 'refund refused by the provider' : 'refund failed; will retry',
    );
    return { outcome: refused ? 'refused' : 'retry', error, attempts: pending.attempts + 1 };
  }
}
