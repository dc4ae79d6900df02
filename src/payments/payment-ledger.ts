import type { Database, Executor } from '../infra/db/database.ts';
import { AppError, invalid } from '../infra/http/problems.ts';
import type { ChargeResult, PaymentProvider } from './payment-provider.ts';

// Payments sit below the features: they take the two things they need, not the app's context.
type Ctx = { db: Database; payments: PaymentProvider };

export interface Charge {
  providerRef: string;
  amount: number;
  currency: string;
  brand?: string;
  last4?: string;
}

export interface Payer {
  /** Charges now; a decline throws `payment_failed`, so the surrounding transaction rolls back. */
  charge(amount: number, currency: string, token: string, reference: string): Promise<Charge>;
  /** Queues a refund; it reaches the provider only once the transaction has committed. */
  refund(amount: number, currency: string, reference: string): void;
}

/** A client error before anything is attempted: a token the provider can never accept. */
export function assertUsableToken(ctx: Ctx, token: string, path: string): void {
  if (!ctx.payments.recognises(token))
    throw invalid(path, `"${token}" is not a payment token this provider accepts`);
}

/**
 * Runs a transaction that may charge cards. Money must follow the data: a charge made by an
 * attempt that did not commit (payment decline, lost race, deadlock retry, commit failure) is
 * refunded, so "nothing is charged when the booking fails" holds whatever fails.
 */
export async function transactionWithPayments<T>(
  ctx: Ctx,
  log: { error(obj: unknown, msg: string): void },
  fn: (tx: Executor, payer: Payer) => Promise<T>,
): Promise<T> {
  const all: Charge[] = [];
  let committed: Charge[] = [];
  let refunds: Array<{ amount: number; currency: string; reference: string }> = [];
  const compensate = async (charges: Charge[]) => {
    for (const c of charges) {
      try {
        await ctx.payments.refund({
          providerRef: c.providerRef,
          amount: c.amount,
          currency: c.currency,
          reference: 'compensation',
        });
      } catch (err) {
        // Needs a human: money was taken for something that does not exist.
        log.error({ err, providerRef: c.providerRef, amount: c.amount }, 'compensating refund failed');
      }
    }
  };
  try {
    const result = await ctx.db.transaction(async (tx) => {
      const attempt: Charge[] = [];
      const attemptRefunds: typeof refunds = [];
      const payer: Payer = {
        async charge(amount, currency, token, reference) {
          const outcome: ChargeResult = await ctx.payments.charge({ amount, currency, token, reference });
          if (!outcome.ok) {
            throw new AppError('payment_failed', `${outcome.message} Nothing was booked or charged.`, {
              errors: [
                { path: '/payment/token', message: outcome.message, declineCode: outcome.declineCode },
              ],
            });
          }
          const charge = {
            providerRef: outcome.providerRef,
            amount,
            currency,
            brand: outcome.brand,
            last4: outcome.last4,
          };
          attempt.push(charge);
          all.push(charge);
          return charge;
        },
        refund(amount, currency, reference) {
          attemptRefunds.push({ amount, currency, reference });
        },
      };
      const value = await fn(tx, payer);
      committed = attempt;
      refunds = attemptRefunds;
      return value;
    });
    await compensate(all.filter((c) => !committed.includes(c)));
    for (const r of refunds) {
      try {
        await ctx.payments.refund({ providerRef: null, ...r });
      } catch (err) {
        log.error(
          { err, amount: r.amount, reference: r.reference },
          'refund failed after commit; retry by hand',
        );
      }
    }
    return result;
  } catch (error) {
    await compensate(all);
    throw error;
  }
}
