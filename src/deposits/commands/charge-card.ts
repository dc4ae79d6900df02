import type { FolioPayment } from '../../folios/commands/folio-context.ts';
import { type FolioWriteContext, folioOf, reservationFor } from '../../folios/commands/folio-context.ts';
import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { recordAudit } from '../../operator-access/audit-trail.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { chargeCardOnFile, closeBalance } from '../../payments/card-on-file.ts';
import type { PaymentDeps } from '../../payments/charge.ts';
import { recordPaymentEvent } from '../../payments/payment-events.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { amountDue } from '../../reservations/reservation.view.ts';

export interface ChargeCardInput {
  amount?: number | undefined;
  reason: string;
}

export interface CardCharged {
  code: string;
  currency: string;
  payment: FolioPayment;
  reason: string;
  balance: number;
}

/**
 * The desk charges the card on file now (API.md 14.2): the folio's balance by default, or a part of
 * it (a no-show fee), never more (`409 amount_exceeds_balance`). In one transaction under the
 * reservation's lock: the charge, the reservation's payment (up to what the stay owes; the rest pays
 * the folio's own charges), `payment.succeeded` and the audit entry `folio.card_charged`. A decline
 * is `402 payment_failed`: nothing is charged or paid, and `payment.failed` is recorded (committed,
 * though the answer is an error) so the hotel's systems learn of the refusal as they do of a balance's.
 */
export async function chargeCard(
  ctx: FolioWriteContext & PaymentDeps,
  principal: Principal,
  code: string,
  body: ChargeCardInput,
  options: WriteOptions<CardCharged> = {},
): Promise<CardCharged> {
  const outcome = await ctx.db.transaction(async (tx): Promise<CardCharged | { declined: AppError }> => {
    const { row, hotel } = await reservationFor(tx, ctx, principal, code, { forUpdate: true });
    const before = await folioOf(tx, row, hotel);
    const balance = before.total - before.paid;
    const amount = body.amount ?? balance;
    if (amount <= 0 || amount > balance) {
      throw new AppError(
        'amount_exceeds_balance',
        balance <= 0
          ? `The folio of ${code} has no balance to charge.`
          : `${amount} is more than the folio's balance of ${balance} (minor units of ${row.currency}).`,
      );
    }
    try {
      await chargeCardOnFile(tx, ctx, row, {
        amount,
        purpose: 'card_on_file',
        // What the folio had been paid names this charge: the same on a retry after a crash.
        basis: `${row.code}/card_on_file/paid-${before.paid}`,
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'payment_failed') throw error;
      // Nothing was written before the charge: this transaction commits the refusal's event alone.
      await recordPaymentEvent(tx, 'payment.failed', row.hotelId, row, {
        amount,
        currency: row.currency,
        kind: 'charge',
        purpose: 'card_on_file',
        reason: body.reason,
        declineCode: (error.errors?.[0]?.declineCode as string | undefined) ?? error.code,
      });
      return { declined: error };
    }
    const forStay = Math.min(amount, amountDue(row));
    let updated = row;
    if (forStay > 0) {
      const paid: ReservationRow = { ...row, paidAmount: row.paidAmount + forStay };
      if (row.status === 'confirmed' && paid.paidAmount >= row.totalAmount) {
        paid.paymentStatus = 'paid';
        paid.stay = await closeBalance(tx, row, 'paid');
      }
      updated = await reservations.update(tx, paid, ctx.clock.now());
    }
    await recordPaymentEvent(tx, 'payment.succeeded', row.hotelId, updated, {
      amount,
      currency: row.currency,
      kind: 'charge',
      purpose: 'card_on_file',
      reason: body.reason,
    });
    const after = await folioOf(tx, updated, hotel);
    const payment = after.payments.filter((p) => p.method === 'card' && p.kind === 'payment').at(-1);
    if (!payment) throw new Error('the card charge is not on the folio');
    await recordAudit(tx, ctx.audit, {
      hotelIds: [row.hotelId],
      action: 'folio.card_charged',
      target: { type: 'folio', id: row.code },
      details: { paymentId: payment.id, amount, currency: row.currency, reason: body.reason },
    });
    return finishWrite(
      tx,
      {
        code: row.code,
        currency: row.currency,
        payment,
        reason: body.reason,
        balance: after.total - after.paid,
      },
      options,
    );
  });
  if ('declined' in outcome) throw outcome.declined;
  return outcome;
}
