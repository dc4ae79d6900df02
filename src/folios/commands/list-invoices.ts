import type { Principal } from '../../operator-access/scopes.ts';
import { invoicesRepository } from '../invoices.repository.ts';
import type { FolioContext } from './folio-context.ts';
import { type Invoice, loadInvoice } from './invoice-view.ts';

/** The most invoices one page holds; the CSV export pages the same way. */
export const INVOICE_PAGE_LIMIT = 500;

/**
 * `GET /operator/hotels/{hotel}/invoices` (API.md 13): the hotel's invoices and credit notes of
 * issue dates `from`..`to` (hotel-local, inclusive), in issue order, a page at a time.
 */
export async function listInvoices(
  ctx: FolioContext,
  _principal: Principal,
  q: { hotelId: string; from: string | null; to: string | null; afterSeq: number; limit: number },
): Promise<{ data: Invoice[]; nextSeq: number | null }> {
  return ctx.db.transaction(async (tx) => {
    const rows = await invoicesRepository.list(tx, { ...q, limit: q.limit + 1 });
    const page = rows.slice(0, q.limit);
    const data = await Promise.all(page.map((row) => loadInvoice(tx, row, ctx.config.verifactuQrUrl)));
    const last = page.at(-1);
    return { data, nextSeq: rows.length > q.limit && last ? last.seq : null };
  });
}
