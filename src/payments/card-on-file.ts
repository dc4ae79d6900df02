import type { Transaction } from '../infra/db/database.ts';
import { AppError } from '../infra/http/problems.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { balanceChargesRepository } from './balance-charges.repository.ts';
import { cardsOnFileRepository } from './cards-on-file.repository.ts';
import { type Charge, chargeWithinTransaction, type PaymentDeps } from './charge.ts';
import type { PaymentPurpose } from './payments.repository.ts';

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
  if (payment.balanceDue) await balanceChargesRepository.schedule(tx, row.hotelId, row.id, payment.balanceDue);
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
