import type { Executor } from '../infra/db/database.ts';

export interface InvoiceLine {
  folioLineId: string | null;
  description: string;
  quantity: number;
  unitAmount: number;
  amount: number;
  vatRate: number | null;
}

/** The `invoice_lines` table: an invoice's lines as issued, never changed. */
export const invoiceLinesRepository = {
  async insert(
    tx: Executor,
    hotelId: string,
    invoiceId: string,
    lines: readonly InvoiceLine[],
  ): Promise<void> {
    // One statement for all lines: a folio has tens of lines, not thousands.
    const values: unknown[] = [];
    const tuples = lines.map((l, i) => {
      const at = values.length;
      values.push(
        hotelId,
        invoiceId,
        i + 1,
        l.folioLineId,
        l.description,
        l.quantity,
        l.unitAmount,
        l.amount,
        l.vatRate,
      );
      return `(${Array.from({ length: 9 }, (_, k) => `$${at + k + 1}`).join(', ')})`;
    });
    if (tuples.length === 0) return;
    await tx.query(
      `INSERT INTO invoice_lines (hotel_id, invoice_id, position, folio_line_id, description, quantity, unit_amount,
                                  amount, vat_rate)
       VALUES ${tuples.join(', ')}`,
      values,
    );
  },

  async ofInvoice(ex: Executor, hotelId: string, invoiceId: string): Promise<InvoiceLine[]> {
    const { rows } = await ex.query(
      `SELECT folio_line_id, description, quantity, unit_amount, amount, vat_rate FROM invoice_lines
       WHERE hotel_id = $1 AND invoice_id = $2 ORDER BY position`,
      [hotelId, invoiceId],
    );
    return rows.map((r) => ({
      folioLineId: (r.folio_line_id as string | null) ?? null,
      description: r.description as string,
      quantity: Number(r.quantity),
      unitAmount: Number(r.unit_amount),
      amount: Number(r.amount),
      vatRate: r.vat_rate === null ? null : Number(r.vat_rate),
    }));
  },
};
