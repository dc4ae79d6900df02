import { randomToken } from '../../infra/crypto/tokens.ts';
import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { recordAudit } from '../../operator-access/audit-trail.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { type DeskPayment, folioPaymentsRepository } from '../folio-payments.repository.ts';
import { type FolioWriteContext, reservationFor } from './folio-context.ts';

export interface PaymentRequest {
  amount: number;
  method: DeskPayment['method'];
  kind?: DeskPayment['kind'] | undefined;
  reference?: string | undefined;
}

/** `POST …/folio/payments`: money taken or given back at the desk, written as it is. */
export async function recordPayment(
  ctx: FolioWriteContext,
  principal: Principal,
  code: string,
  body: PaymentRequest,
  options: WriteOptions<{ payment: DeskPayment; currency: string }> = {},
): Promise<{ payment: DeskPayment; currency: string }> {
  return ctx.db.transaction(async (tx) => {
    const { row } = await reservationFor(tx, ctx, principal, code, { forUpdate: true });
    const payment = await folioPaymentsRepository.insert(tx, row.hotelId, row.id, {
      id: randomToken('fp_', 12),
      kind: body.kind ?? 'payment',
      method: body.method,
      amount: body.amount,
      reference: body.reference ?? null,
      at: ctx.clock.now(),
    });
    await recordAudit(tx, ctx.audit, {
      hotelIds: [row.hotelId],
      action: 'folio.payment_recorded',
      target: { type: 'folio', id: row.code },
      details: {
        paymentId: payment.id,
        kind: payment.kind,
        method: payment.method,
        amount: payment.amount,
        currency: row.currency,
      },
    });
    return finishWrite(tx, { payment, currency: row.currency }, options);
  });
}
