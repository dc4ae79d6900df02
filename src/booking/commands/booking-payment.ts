import type { Hotel, RatePlan } from '../../catalog/catalog.schema.ts';
import type { Transaction } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { takeDeposit } from '../../payments/card-on-file.ts';
import { assertUsableToken } from '../../payments/charge.ts';
import type { DepositTerms } from '../../payments/rules/payment-schedule.ts';
import type { ReservationRow, ScheduledPayment } from '../../reservations/reservation.row.ts';
import { reservationPaymentsRepository as reservationPayments } from '../../reservations/reservation-payments.repository.ts';
import type { QuoteResponse } from '../availability.schemas.ts';
import type { StayPrice } from '../rules/pricing.ts';
import type { CommandContext } from './command-context.ts';
import { depositSchedule } from './deposit-schedule.ts';
import { chargeFor, type MoneyMoved } from './reservation-payments.ts';

/*
 * What a booking pays when it is made (API.md 4 and 14.2), kept apart from creating the
 * reservation: a `full` plan charges the total, a `deposit` plan its deposit and keeps the card for
 * the balance, an `at_hotel` plan nothing. The quote, not the new code, names the payment, so a
 * retry of the same quote never charges twice.
 */

type StoredQuote = QuoteResponse & { nightly: StayPrice['nightly'] };

/** A deposit plan's schedule for a booking made `now`: the deposit now, the balance later. */
export interface DepositPlan {
  chargeNow: number;
  schedule: ScheduledPayment[];
  balanceDue: Date | null;
}

/**
 * Refuses, before anything is written, a prepaid or deposit booking without a usable card token
 * (`402 payment_required`, or `400` for a token the provider cannot take), and works out a deposit
 * plan's schedule (null for any other plan).
 */
export function planBookingPayment(
  ctx: CommandContext,
  hotel: Hotel,
  quote: StoredQuote,
  plan: RatePlan,
  payment: { token: string } | undefined,
  now: Date,
): DepositPlan | null {
  const prepayment = quote.ratePlan.prepayment;
  if (prepayment !== 'full' && prepayment !== 'deposit') return null;
  if (!payment) {
    throw new AppError(
      'payment_required',
      prepayment === 'deposit'
        ? `The ${quote.ratePlan.name} rate takes a deposit at booking and keeps the card for the balance: send payment.token.`
        : `The ${quote.ratePlan.name} rate is paid at booking: send payment.token.`,
    );
  }
  assertUsableToken(ctx, payment.token, '/payment/token');
  if (prepayment === 'full') return null;
  const summary = quote.ratePlan as { deposit?: DepositTerms; balanceDueDays?: number };
  // As the quote showed it (deposit-schedule.ts), on the terms the quote was made with.
  return depositSchedule(
    ctx.config,
    hotel,
    {
      ...quote,
      ratePlan: {
        prepayment,
        deposit: summary.deposit ?? plan.deposit,
        balanceDueDays: summary.balanceDueDays ?? plan.balanceDueDays,
      },
    },
    now,
  );
}

/**
 * Takes the booking's payment inside `tx` (refunded if `tx` does not commit): the row as it ends
 * (paid, or with its deposit and card on file) and the money moved, for the `payment.*` events.
 */
export async function payAtBooking(
  tx: Transaction,
  ctx: CommandContext,
  inserted: ReservationRow,
  quote: StoredQuote,
  payment: { token: string } | undefined,
  deposit: DepositPlan | null,
): Promise<{ row: ReservationRow; moved: MoneyMoved[] }> {
  if (!payment) return { row: inserted, moved: [] };
  const basis = `quote/${quote.id}`;
  if (quote.ratePlan.prepayment === 'full') {
    const moved = await chargeFor(tx, ctx, inserted, payment.token, inserted.totalAmount, 'booking', basis);
    // Part of creation, not a change: the version stays 1.
    const row = await reservationPayments.markPaid(tx, inserted, inserted.totalAmount);
    return { row, moved: [moved] };
  }
  if (!deposit) return { row: inserted, moved: [] };
  const { chargeNow, balanceDue } = deposit;
  const charge = await takeDeposit(tx, ctx, inserted, {
    token: payment.token,
    amount: chargeNow,
    basis,
    balanceDue,
    purpose: 'booking',
  });
  const card = {
    ...(charge.brand ? { brand: charge.brand } : {}),
    ...(charge.last4 ? { last4: charge.last4 } : {}),
  };
  const row = await reservationPayments.markDepositPaid(tx, inserted, chargeNow, {
    ...inserted.stay,
    cardOnFile: card,
  });
  return { row, moved: [{ kind: 'charge', purpose: 'booking', amount: chargeNow }] };
}
