import type { Executor } from '../infra/db/database.ts';
import type { FolioLine, FolioLineType } from './rules/folio-lines.ts';

const COLUMNS = `id, type, source_key, code, description, line_date, quantity, unit_amount, amount, vat_rate,
  invoice_id, voided`;

function toLine(r: Record<string, unknown>): FolioLine {
  return {
    id: r.id as string,
    type: r.type as FolioLineType,
    sourceKey: (r.source_key as string | null) ?? null,
    code: (r.code as string | null) ?? null,
    description: r.description as string,
    date: r.line_date as string,
    quantity: Number(r.quantity),
    unitAmount: Number(r.unit_amount),
    amount: Number(r.amount),
    vatRate: r.vat_rate === null || r.vat_rate === undefined ? null : Number(r.vat_rate),
    invoiceId: (r.invoice_id as string | null) ?? null,
    voided: r.voided as boolean,
  };
}

/** The `folio_lines` table: desk charges, and the reservation lines an invoice froze. */
export const folioLinesRepository = {
  async ofReservation(ex: Executor, hotelId: string, reservationId: number): Promise<FolioLine[]> {
    const { rows } = await ex.query(
      `SELECT ${COLUMNS} FROM folio_lines WHERE hotel_id = $1 AND reservation_id = $2 ORDER BY seq`,
      [hotelId, reservationId],
    );
    return rows.map(toLine);
  },

  /** Writes a line: a new charge (`invoiceId` null), or a reservation line an invoice takes. */
  async insert(tx: Executor, hotelId: string, reservationId: number, line: FolioLine): Promise<FolioLine> {
    const { rows } = await tx.query(
      `INSERT INTO folio_lines (hotel_id, id, reservation_id, type, source_key, code, description, line_date,
                                quantity, unit_amount, amount, vat_rate, invoice_id, voided)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING ${COLUMNS}`,
      [
        hotelId,
        line.id,
        reservationId,
        line.type,
        line.sourceKey,
        line.code,
        line.description,
        line.date,
        line.quantity,
        line.unitAmount,
        line.amount,
        line.vatRate,
        line.invoiceId,
        line.voided,
      ],
    );
    return toLine(rows[0] as Record<string, unknown>);
  },

  /** Charges (stored, open) taken by an invoice. */
  async attach(tx: Executor, hotelId: string, ids: readonly string[], invoiceId: string): Promise<void> {
    if (ids.length === 0) return;
    await tx.query(
      `UPDATE folio_lines SET invoice_id = $3
       WHERE hotel_id = $1 AND id = ANY($2::text[]) AND invoice_id IS NULL AND NOT voided`,
      [hotelId, ids, invoiceId],
    );
  },

  async void(tx: Executor, hotelId: string, id: string): Promise<FolioLine | null> {
    const { rows } = await tx.query(
      `UPDATE folio_lines SET voided = true WHERE hotel_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [hotelId, id],
    );
    return rows[0] ? toLine(rows[0]) : null;
  },

  /**
   * A credit note gives an invoice's lines back to the folio: charges open again, and the
   * reservation lines it froze are dropped, to be read from the reservation as it stands.
   */
  async release(tx: Executor, hotelId: string, invoiceId: string): Promise<void> {
    await tx.query(
      `DELETE FROM folio_lines WHERE hotel_id = $1 AND invoice_id = $2 AND source_key IS NOT NULL`,
      [hotelId, invoiceId],
    );
    await tx.query(`UPDATE folio_lines SET invoice_id = NULL WHERE hotel_id = $1 AND invoice_id = $2`, [
      hotelId,
      invoiceId,
    ]);
  },
};
