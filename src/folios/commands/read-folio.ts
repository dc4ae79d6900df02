import type { Principal } from '../../operator-access/scopes.ts';
import { type InvoiceRow, invoicesRepository } from '../invoices.repository.ts';
import { hotelVatRates } from '../rules/folio-lines.ts';
import { type Folio, type FolioContext, folioOf, reservationFor } from './folio-context.ts';

/** A folio as the desk reads it: with the VAT rates a charge may carry and the invoices issued. */
export interface FolioRead extends Folio {
  vatRates: number[];
  invoices: InvoiceRow[];
}

/** `GET /operator/reservations/{reservation}/folio`: one consistent read of lines and money. */
export async function readFolio(ctx: FolioContext, principal: Principal, code: string): Promise<FolioRead> {
  return ctx.db.transaction(async (tx) => {
    const { row, hotel } = await reservationFor(tx, ctx, principal, code);
    const [folio, invoices] = await Promise.all([
      folioOf(tx, row, hotel),
      invoicesRepository.ofReservation(tx, row.hotelId, row.id),
    ]);
    return { ...folio, vatRates: hotelVatRates(hotel.taxes), invoices };
  });
}
