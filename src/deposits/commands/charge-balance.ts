import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import type { Transaction } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { queueMessages } from '../../messages/outbox.ts';
import { balanceChargesRepository, type ClaimedBalance } from '../../payments/balance-charges.repository.ts';
import { chargeCardOnFile } from '../../payments/card-on-file.ts';
import { recordPaymentEvent } from '../../payments/payment-events.ts';
import { settleOpen } from '../../payments/rules/payment-schedule.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { amountDue, reservationView } from '../../reservations/reservation.view.ts';

/** What charging a balance uses of the app. */
export type BalanceContext = Pick<AppContext, 'db' | 'payments' | 'clock' | 'config' | 'catalog'>;

export type BalanceOutcome = 'paid' | 'failed' | 'dropped' | 'lost_claim';

/**
 * Charges one claimed balance to the card on file (API.md 14.2), in one transaction under the
 * reservation's row lock: the charge, the reservation paid, the schedule's balance `paid`, the
 * claim's row deleted and `payment.succeeded` commit together; a refusal marks the balance `failed`,
 * records `payment.failed` and asks the guest to pay (`payment_request`). The row lock and the
 * claim (checked again under it) make a second process that claimed the same balance after a lease
 * ran out find nothing to do: a balance is charged once. A provider that cannot be reached rolls
 * everything back and the balance is tried again after a pause.
 */
export async function chargeBalance(
  ctx: BalanceContext,
  log: Pick<Logger, 'warn' | 'error'>,
  item: ClaimedBalance,
): Promise<BalanceOutcome> {
  const now = ctx.clock.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const row = await reservations.findById(tx, item.reservationId, {
        forUpdate: true,
        hotelId: item.hotelId,
      });
      if (!(await balanceChargesRepository.holds(tx, item))) return 'lost_claim';
      const balance = row.stay.paymentSchedule?.find((p) => p.kind === 'balance' && p.status === 'scheduled');
      const amount = amountDue(row);
      if (row.status !== 'confirmed' || !balance || amount <= 0) {
        await balanceChargesRepository.drop(tx, row.hotelId, row.id);
        return 'dropped';
      }
      const deps = { payments: ctx.payments, log };
      // What is paid so far names this payment: the same on a retry after a crash (one charge at a
      // provider with idempotent charges), another after it.
      const basis = `${row.code}/balance/paid-${row.paidAmount}`;
      try {
        await chargeCardOnFile(tx, deps, row, { amount, purpose: 'balance', basis });
      } catch (error) {
        if (!(error instanceof AppError) || !['payment_failed', 'no_card_on_file'].includes(error.code))
          throw error;
        return refused(tx, ctx, row, amount, error);
      }
      const next: ReservationRow = {
        ...row,
        paidAmount: row.paidAmount + amount,
        paymentStatus: 'paid',
        stay: { ...row.stay, paymentSchedule: settleOpen(row.stay.paymentSchedule ?? [], 'paid') },
      };
      const updated = await reservations.update(tx, next, now);
      await balanceChargesRepository.drop(tx, row.hotelId, row.id);
      await recordPaymentEvent(tx, 'payment.succeeded', row.hotelId, updated, {
        amount,
        currency: row.currency,
        kind: 'charge',
        purpose: 'balance',
      });
      return 'paid';
    });
  } catch (err) {
    // Not a refusal: the provider or the database failed. Nothing committed; try again later.
    const retryAt = new Date(now.getTime() + retryDelayMs(item.attempts));
    log.warn({ err, reservationId: item.reservationId, retryAt }, 'balance charge failed; will retry');
    await balanceChargesRepository
      .postpone(ctx.db, item, retryAt, err instanceof Error ? err.message : String(err))
      .catch((e: unknown) => log.warn({ err: e }, 'balance charge could not be postponed'));
    return 'dropped';
  }
}

/** 1 min, 5 min, 30 min, then every 2 h: the provider's outage, not the guest's card. */
function retryDelayMs(attempts: number): number {
  const minutes = [1, 5, 30][attempts - 1] ?? 120;
  return minutes * 60_000;
}

/** The card on file refused the balance: `failed`, `payment.failed`, and the guest asked to pay. */
async function refused(
  tx: Transaction,
  ctx: BalanceContext,
  row: ReservationRow,
  amount: number,
  error: AppError,
): Promise<BalanceOutcome> {
  const next: ReservationRow = {
    ...row,
    stay: { ...row.stay, paymentSchedule: settleOpen(row.stay.paymentSchedule ?? [], 'failed') },
  };
  const updated = await reservations.update(tx, next, ctx.clock.now());
  await balanceChargesRepository.drop(tx, row.hotelId, row.id);
  const declineCode = (error.errors?.[0]?.declineCode as string | undefined) ?? error.code;
  await recordPaymentEvent(tx, 'payment.failed', row.hotelId, updated, {
    amount,
    currency: row.currency,
    kind: 'charge',
    purpose: 'balance',
    declineCode,
    reason: error.errors?.[0]?.message ?? error.message,
  });
  await queueMessages(tx, updated, [
    {
      kind: 'payment_request',
      data: { reservation: reservationView(updated), amount: { amount, currency: row.currency } },
    },
  ]);
  return 'failed';
}
