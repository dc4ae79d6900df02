import { toRfc3339 } from '../dates/dates.ts';
import type { Transaction } from '../infra/db/database.ts';
import { AppError } from '../infra/http/problems.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { balanceChargesRepository } from './balance-charges.repository.ts';
import { cardsOnFileRepository } from './cards-on-file.repository.ts';
import { type Charge, chargeWithinTransaction, type PaymentDeps } from './charge.ts';
import type { PaymentPurpose } from './payments.repository.ts';
import { depositAmount, rescheduledBalance, settleOpen } from './rules/payment-schedule.ts';

/**
 * Takes a deposit plan's payment at booking (API.md 14.2) inside `tx`: the card is charged
 * `amount` and kept on file for the rest, and the balance, if any, is scheduled for the claim
 * worker at `balanceDue` (null: nothing to charge by itself). A decline throws `402 payment_failed`.
 */
export async function takeDeposit(
  tx: Transaction,
  deps: PaymentDeps,
  row: ReservationRow,
  payment: { token: string; amount: number; basis: string; balanceDue: Date | null; purpose: PaymentPurpose },
): Promise<Charge> {
  const charge = await chargeWithinTransaction(tx, deps, {
    reservationId: row.id,
    purpose: payment.purpose,
    amount: payment.amount,
    currency: row.currency,
    token: payment.token,
    reference: `${row.code}/${payment.purpose}`,
    idempotencyBasis: payment.basis,
    hotelId: row.hotelId,
    saveCard: true,
  });
  await cardsOnFileRepository.save(tx, row.hotelId, row.id, {
    provider: deps.payments.name,
    token: charge.savedCard?.token ?? payment.token,
    customer: charge.savedCard?.customer ?? null,
    brand: charge.brand ?? null,
    last4: charge.last4 ?? null,
  });
  if (payment.balanceDue)
    await balanceChargesRepository.schedule(tx, row.hotelId, row.id, payment.balanceDue);
  return charge;
}

/** No card on file for this reservation: `409 no_card_on_file` (a plan without a deposit kept none). */
export function noCardOnFile(code: string): AppError {
  return new AppError(
    'no_card_on_file',
    `Reservation ${code} has no card on file: only a deposit plan keeps the card given at booking.`,
  );
}

/**
 * Charges the reservation's card on file without the guest, inside `tx` (refunded if `tx` does not
 * commit): the balance when due, the desk's charge-card. A decline throws `402 payment_failed`.
 */
export async function chargeCardOnFile(
  tx: Transaction,
  deps: PaymentDeps,
  row: ReservationRow,
  charge: { amount: number; purpose: PaymentPurpose; basis: string },
): Promise<Charge> {
  const card = await cardsOnFileRepository.find(tx, row.hotelId, row.id);
  if (!card || card.provider !== deps.payments.name) throw noCardOnFile(row.code);
  return chargeWithinTransaction(tx, deps, {
    reservationId: row.id,
    purpose: charge.purpose,
    amount: charge.amount,
    currency: row.currency,
    token: card.token,
    reference: `${row.code}/${charge.purpose}`,
    idempotencyBasis: charge.basis,
    hotelId: row.hotelId,
    offSession: { customer: card.customer },
    declined: (message, declineCode) => `The card on file was declined (${declineCode}): ${message}`,
  });
}

/** Whether the reservation keeps a card on file. */
export async function hasCardOnFile(tx: Transaction, row: ReservationRow): Promise<boolean> {
  return (await cardsOnFileRepository.find(tx, row.hotelId, row.id)) !== null;
}

/**
 * A deposit plan's open balance closed in `tx` (API.md 14.2): paid another way (the check-in's
 * payment step, the desk), or cancelled with the stay. Answers the stay to write; the claim
 * worker's row goes, so nothing is charged later.
 */
export async function closeBalance(
  tx: Transaction,
  row: ReservationRow,
  status: 'paid' | 'cancelled',
): Promise<ReservationRow['stay']> {
  if (!row.stay.paymentSchedule) return row.stay;
  await balanceChargesRepository.drop(tx, row.hotelId, row.id);
  return { ...row.stay, paymentSchedule: settleOpen(row.stay.paymentSchedule, status) };
}

/**
 * The schedule after a change of the stay (docs/api.md §13.2.2), in the change's transaction: a
 * deposit plan keeps the deposit paid and owes the rest as a balance due again `balanceDueDays`
 * before the (new) check-in, or at once when that moment has passed; changed to a deposit plan from
 * one without a card on file, the change takes the new deposit (less what is paid) with
 * `payment.token` and keeps that card (`402 payment_required` without it). Another plan has no
 * schedule. Answers the stay to write, and what was charged.
 */
export async function rescheduleAfterChange(
  tx: Transaction,
  deps: PaymentDeps,
  change: {
    before: ReservationRow;
    next: ReservationRow;
    timezone: string;
    checkInTime: string;
    chargeTime: string;
    now: Date;
    token: string | undefined;
  },
): Promise<{ stay: ReservationRow['stay']; charged: number }> {
  const { before, next, now } = change;
  const plan = next.stay.ratePlan;
  if (plan.prepayment !== 'deposit') {
    await balanceChargesRepository.drop(tx, before.hotelId, before.id);
    const { paymentSchedule: _dropped, ...stay } = next.stay;
    return { stay, charged: 0 };
  }
  let previous = before.stay.paymentSchedule ?? [];
  let charged = 0;
  let cardOnFile = before.stay.cardOnFile;
  if (!(await cardsOnFileRepository.find(tx, before.hotelId, before.id))) {
    if (!change.token)
      throw new AppError(
        'payment_required',
        `The ${plan.name} rate takes a deposit and keeps a card on file for the balance: send payment.token.`,
      );
    const deposit = depositAmount(
      plan.deposit ?? { percent: 100 },
      next.totalAmount,
      next.stay.nightly.map((n) => n.amount.amount),
    );
    charged = Math.max(0, deposit - next.paidAmount);
    if (charged > 0) {
      const charge = await takeDeposit(tx, deps, before, {
        token: change.token,
        amount: charged,
        basis: `${before.code}/modification/v${before.version}`,
        balanceDue: null,
        purpose: 'modification',
      });
      cardOnFile = {
        ...(charge.brand ? { brand: charge.brand } : {}),
        ...(charge.last4 ? { last4: charge.last4 } : {}),
      };
    } else {
      await cardsOnFileRepository.save(tx, before.hotelId, before.id, {
        provider: deps.payments.name,
        token: change.token,
        customer: null,
        brand: null,
        last4: null,
      });
    }
    previous = [
      {
        kind: 'deposit',
        dueAt: toRfc3339(now),
        amount: next.paidAmount + charged,
        status: 'paid',
        collection: 'card_on_file',
      },
    ];
  }
  const { schedule, balanceDue } = rescheduledBalance(previous, {
    total: next.totalAmount,
    paid: next.paidAmount + charged,
    balanceDueDays: plan.balanceDueDays ?? 0,
    checkIn: next.checkIn,
    timezone: change.timezone,
    chargeTime: change.chargeTime,
    checkInTime: change.checkInTime,
    now,
  });
  if (balanceDue) await balanceChargesRepository.schedule(tx, before.hotelId, before.id, balanceDue);
  else await balanceChargesRepository.drop(tx, before.hotelId, before.id);
  return {
    stay: { ...next.stay, paymentSchedule: schedule, ...(cardOnFile ? { cardOnFile } : {}) },
    charged,
  };
}
