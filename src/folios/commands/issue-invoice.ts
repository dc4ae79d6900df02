import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { folioLinesRepository } from '../folio-lines.repository.ts';
import type { InvoiceLine } from '../invoice-lines.repository.ts';
import type { Party } from '../invoices.repository.ts';
import { invoiceable } from '../rules/folio-lines.ts';
import { vatBreakdown } from '../rules/invoice-totals.ts';
import { conflict, type FolioWriteContext, folioOf, reservationFor } from './folio-context.ts';
import type { Invoice } from './invoice-view.ts';
import { legalOf, writeInvoice } from './write-invoice.ts';

/**
 * `POST /operator/reservations/{reservation}/invoices` (API.md 13): an invoice of every folio line
 * neither invoiced nor voided, to the guest or the given recipient. The reservation's lines it
 * takes are frozen on the folio as invoiced, so a later re-pricing leaves them as they were.
 */
export async function issueInvoice(
  ctx: FolioWriteContext,
  principal: Principal,
  code: string,
  body: { recipient?: Party | undefined },
  options: WriteOptions<Invoice> = {},
): Promise<Invoice> {
  return ctx.db.transaction(async (tx) => {
    const { row, hotel } = await reservationFor(tx, ctx, principal, code, { forUpdate: true });
    const legal = legalOf(hotel);
    const folio = await folioOf(tx, row, hotel);
    const open = invoiceable(folio.lines);
    if (open.length === 0) {
      throw conflict(
        'nothing_to_invoice',
        `Every line of reservation ${row.code}'s folio is invoiced or voided.`,
      );
    }
    const lines: InvoiceLine[] = open.map((l) => ({
      folioLineId: l.id,
      description: l.description,
      quantity: l.quantity,
      unitAmount: l.unitAmount,
      amount: l.amount,
      vatRate: l.vatRate,
    }));
    const invoice = await writeInvoice(tx, ctx, hotel, row, {
      type: 'invoice',
      series: legal.invoiceSeries,
      issuer: { name: legal.name, taxId: legal.taxId, address: legal.address, country: legal.country },
      recipient: body.recipient ?? { name: `${row.guest.firstName} ${row.guest.lastName}` },
      language: row.guest.language ?? 'en',
      lines,
      taxes: vatBreakdown(lines),
      total: lines.reduce((sum, l) => sum + l.amount, 0),
      corrects: null,
      correctsNumber: null,
      reason: null,
    });
    for (const line of open) {
      if (line.sourceKey === null) continue;
      await folioLinesRepository.insert(tx, row.hotelId, row.id, { ...line, invoiceId: invoice.row.id });
    }
    await folioLinesRepository.attach(
      tx,
      row.hotelId,
      open.filter((l) => l.sourceKey === null).map((l) => l.id),
      invoice.row.id,
    );
    return finishWrite(tx, invoice, options);
  });
}
