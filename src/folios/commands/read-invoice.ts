import type { Principal } from '../../operator-access/scopes.ts';
import { invoicesRepository } from '../invoices.repository.ts';
import type { FolioContext } from './folio-context.ts';
import { type Invoice, loadInvoice } from './invoice-view.ts';
import { invoiceNotFound } from './issue-credit-note.ts';

/** `GET /operator/invoices/{invoice}`: as issued (another hotel's is `404`). */
export async function readInvoice(
  ctx: FolioContext,
  principal: Principal,
  invoiceId: string,
): Promise<Invoice> {
  return ctx.db.transaction(async (tx) => {
    const row = await invoicesRepository.find(tx, invoiceId);
    if (!row || (principal.hotelIds !== null && !principal.hotelIds.includes(row.hotelId))) {
      throw invoiceNotFound();
    }
    return loadInvoice(tx, row, ctx.config.verifactuQrUrl);
  });
}
