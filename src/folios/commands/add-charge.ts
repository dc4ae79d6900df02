import { hotelToday } from '../../dates/dates.ts';
import { randomToken } from '../../infra/crypto/tokens.ts';
import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { invalid } from '../../infra/http/problems.ts';
import { recordAudit } from '../../operator-access/audit-trail.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { folioLinesRepository } from '../folio-lines.repository.ts';
import { type FolioLine, hotelVatRate, hotelVatRates } from '../rules/folio-lines.ts';
import { type FolioWriteContext, reservationFor } from './folio-context.ts';

export interface ChargeRequest {
  description: string;
  unitAmount: number;
  quantity?: number | undefined;
  date?: string | undefined;
  vatRate?: number | null | undefined;
}

/** Largest amount of one line, as the catalogue's prices: far beyond a minibar, far below overflow. */
const MAX_LINE_AMOUNT = 1_000_000_000;

/**
 * A desk charge (API.md 13: the minibar, a late check-out). Its VAT rate must be one of the hotel's
 * `percent_included` taxes, `null` for a charge outside VAT; absent, the hotel's VAT rate.
 */
export async function addCharge(
  ctx: FolioWriteContext,
  principal: Principal,
  code: string,
  body: ChargeRequest,
  options: WriteOptions<{ line: FolioLine; currency: string }> = {},
): Promise<{ line: FolioLine; currency: string }> {
  return ctx.db.transaction(async (tx) => {
    const { row, hotel } = await reservationFor(tx, ctx, principal, code, { forUpdate: true });
    const rates = hotelVatRates(hotel.taxes);
    const vatRate = body.vatRate === undefined ? hotelVatRate(hotel.taxes) : body.vatRate;
    if (vatRate !== null && !rates.includes(vatRate)) {
      throw invalid(
        '/vatRate',
        rates.length === 0
          ? `hotel ${hotel.id} has no VAT (no percent_included tax): leave vatRate out or null`
          : `hotel ${hotel.id} has no VAT rate ${vatRate}: one of ${rates.join(', ')}, or null outside VAT`,
      );
    }
    const quantity = body.quantity ?? 1;
    const amount = body.unitAmount * quantity;
    if (Math.abs(amount) > MAX_LINE_AMOUNT) {
      throw invalid(
        '/unitAmount',
        `unitAmount × quantity must be at most ${MAX_LINE_AMOUNT} in absolute value`,
      );
    }
    const line = await folioLinesRepository.insert(tx, row.hotelId, row.id, {
      id: randomToken('fl_', 12),
      type: 'charge',
      sourceKey: null,
      code: null,
      description: body.description,
      date: body.date ?? hotelToday(hotel.timezone, ctx.clock.now()),
      quantity,
      unitAmount: body.unitAmount,
      amount,
      vatRate,
      invoiceId: null,
      voided: false,
    });
    await recordAudit(tx, ctx.audit, {
      hotelIds: [row.hotelId],
      action: 'folio.charge_added',
      target: { type: 'folio', id: row.code },
      details: {
        lineId: line.id,
        date: line.date,
        quantity,
        unitAmount: body.unitAmount,
        amount,
        vatRate,
        currency: row.currency,
      },
    });
    return finishWrite(tx, { line, currency: row.currency }, options);
  });
}
