import type { Principal } from '../../operator-access/scopes.ts';
import { type Folio, type FolioContext, folioOf, reservationFor } from './folio-context.ts';

/** `GET /operator/reservations/{reservation}/folio`: one consistent read of lines and money. */
export async function readFolio(ctx: FolioContext, principal: Principal, code: string): Promise<Folio> {
  return ctx.db.transaction(async (tx) => {
    const { row, hotel } = await reservationFor(tx, ctx, principal, code);
    return folioOf(tx, row, hotel);
  });
}
