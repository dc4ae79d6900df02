import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { recordAudit } from '../../operator-access/audit-trail.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { folioLinesRepository } from '../folio-lines.repository.ts';
import type { FolioLine } from '../rules/folio-lines.ts';
import { conflict, type FolioWriteContext, reservationFor } from './folio-context.ts';

/** `POST …/folio/charges/{line}/void`: a desk charge no invoice took is voided (kept, not counted). */
export async function voidCharge(
  ctx: FolioWriteContext,
  principal: Principal,
  code: string,
  lineId: string,
  options: WriteOptions<{ line: FolioLine; currency: string }> = {},
): Promise<{ line: FolioLine; currency: string }> {
  return ctx.db.transaction(async (tx) => {
    const { row } = await reservationFor(tx, ctx, principal, code, { forUpdate: true });
    const lines = await folioLinesRepository.ofReservation(tx, row.hotelId, row.id);
    const line = lines.find((l) => l.id === lineId && l.type === 'charge');
    if (!line) throw new AppError('not_found', `Reservation ${row.code} has no charge ${lineId}.`);
    if (line.invoiceId !== null) {
      throw conflict(
        'already_invoiced',
        `Charge ${lineId} is on invoice ${line.invoiceId}; issue a credit note first.`,
      );
    }
    if (line.voided) return finishWrite(tx, { line, currency: row.currency }, options);
    const voided = await folioLinesRepository.void(tx, row.hotelId, line.id);
    await recordAudit(tx, ctx.audit, {
      hotelIds: [row.hotelId],
      action: 'folio.charge_voided',
      target: { type: 'folio', id: row.code },
      changes: { [`lines.${line.id}.voided`]: [false, true] },
      details: { lineId: line.id, amount: line.amount, currency: row.currency },
    });
    return finishWrite(tx, { line: voided ?? line, currency: row.currency }, options);
  });
}
