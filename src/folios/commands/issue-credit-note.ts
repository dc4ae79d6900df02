import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { AppError, invalid } from '../../infra/http/problems.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { folioLinesRepository } from '../folio-lines.repository.ts';
import { invoicesRepository } from '../invoices.repository.ts';
import { conflict, type FolioWriteContext, reservationFor } from './folio-context.ts';
import { type Invoice, loadInvoice } from './invoice-view.ts';
import { legalOf, writeInvoice } from './write-invoice.ts';

export const invoiceNotFound = () => new AppError('not_found', 'No such invoice.');

/**
 * `POST /operator/invoices/{invoice}/credit-note` (API.md 13): the invoice annulled by a credit note
 * with every amount negated, in the credit-note series; its lines go back to the folio, to be
 * invoiced again. One per invoice: the invoice row is locked, and a unique index backs it.
 */
export async function issueCreditNote(
  ctx: FolioWriteContext,
  principal: Principal,
  invoiceId: string,
  body: { reason: string },
  options: WriteOptions<Invoice> = {},
): Promise<Invoice> {
  return ctx.db.transaction(async (tx) => {
    const found = await invoicesRepository.find(tx, invoiceId);
    if (!found || (principal.hotelIds !== null && !principal.hotelIds.includes(found.hotelId))) {
      throw invoiceNotFound();
    }
    // The reservation first, as issuing does, then the invoice: one lock order, no deadlock.
    const { row, hotel } = await reservationFor(tx, ctx, principal, found.reservationCode, {
      forUpdate: true,
    });
    const original = await invoicesRepository.find(tx, invoiceId, { forUpdate: { hotelId: found.hotelId } });
    if (!original) throw invoiceNotFound();
    if (original.type === 'credit_note') {
      throw invalid('/invoice', `${original.number} is a credit note: only an invoice can be corrected`);
    }
    if (original.correctedBy !== null) {
      throw conflict('already_corrected', `Invoice ${original.number} already has a credit note.`);
    }
    const legal = legalOf(hotel);
    const { lines } = await loadInvoice(tx, original, ctx.config.verifactuQrUrl);
    const credit = await writeInvoice(tx, ctx, hotel, row, {
      type: 'credit_note',
      series: legal.creditNoteSeries,
      issuer: original.issuer,
      recipient: original.recipient,
      language: original.language,
      lines: lines.map((l) => ({ ...l, unitAmount: -l.unitAmount, amount: -l.amount })),
      taxes: original.taxes.map((t) => ({ vatRate: t.vatRate, base: -t.base, amount: -t.amount })),
      total: -original.total,
      corrects: original.id,
      correctsNumber: original.number,
      reason: body.reason,
    });
    await invoicesRepository.markCorrected(tx, original.hotelId, original.id, credit.row.id);
    await folioLinesRepository.release(tx, original.hotelId, original.id);
    return finishWrite(tx, credit, options);
  });
}
