import type { Executor } from '../../infra/db/database.ts';
import type { Language } from '../../infra/i18n/languages.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { invoicesRepository } from '../invoices.repository.ts';
import { renderInvoicePdf } from '../render/invoice-pdf.ts';
import type { FolioContext } from './folio-context.ts';
import { type Invoice, loadInvoice } from './invoice-view.ts';
import { invoiceNotFound } from './issue-credit-note.ts';

export interface InvoicePdf {
  number: string;
  pdf: Buffer;
}

/** The PDF of a loaded invoice, with the number and date of the invoice a credit note corrects. */
async function pdfOf(ex: Executor, invoice: Invoice, language: Language): Promise<InvoicePdf> {
  const { row } = invoice;
  const original = row.corrects ? await invoicesRepository.findInHotel(ex, row.hotelId, row.corrects) : null;
  const pdf = await renderInvoicePdf(invoice, {
    language,
    corrected: original ? { number: original.number, issueDate: original.issueDate } : null,
  });
  return { number: row.number, pdf };
}

/**
 * `GET /operator/invoices/{invoice}/pdf` (API.md 13): the invoice as an A4 PDF in `language`, by
 * default the one it was issued in (the guest's). Drawn from the immutable invoice each time.
 */
export async function readInvoicePdf(
  ctx: FolioContext,
  principal: Principal,
  invoiceId: string,
  language: Language | undefined,
): Promise<InvoicePdf> {
  const invoice = await ctx.db.transaction(async (tx) => {
    const row = await invoicesRepository.find(tx, invoiceId);
    if (!row || (principal.hotelIds !== null && !principal.hotelIds.includes(row.hotelId))) {
      throw invoiceNotFound();
    }
    return loadInvoice(tx, row, ctx.config.verifactuQrUrl);
  });
  return pdfOf(ctx.db, invoice, language ?? invoice.row.language);
}

/**
 * The PDF attached to the guest's `invoice` e-mail (API.md 10, 13), drawn when the e-mail is sent
 * from the invoice as issued, so the outbox row holds no document; null if there is no such invoice.
 */
export async function invoicePdfForMessage(
  ctx: Pick<FolioContext, 'db' | 'config'>,
  hotelId: string,
  invoiceId: string,
  language: Language,
): Promise<InvoicePdf | null> {
  const row = await invoicesRepository.findInHotel(ctx.db, hotelId, invoiceId);
  if (!row) return null;
  const invoice = await loadInvoice(ctx.db, row, ctx.config.verifactuQrUrl);
  return pdfOf(ctx.db, invoice, language);
}
