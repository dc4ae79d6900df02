import type { Executor } from '../infra/db/database.ts';
import type { VerifactuFields } from './rules/verifactu.ts';

export interface VerifactuRecord {
  invoiceId: string;
  number: string;
  fields: VerifactuFields;
  hash: string;
  previousHash: string;
  generatedAt: Date;
}

const COLUMNS = 'seq, invoice_id, number, fields, hash, previous_hash, generated_at';

const toRecord = (r: Record<string, unknown>): VerifactuRecord & { seq: number } => ({
  seq: Number(r.seq),
  invoiceId: r.invoice_id as string,
  number: r.number as string,
  fields: (typeof r.fields === 'string' ? JSON.parse(r.fields) : r.fields) as VerifactuFields,
  hash: r.hash as string,
  previousHash: r.previous_hash as string,
  generatedAt: r.generated_at as Date,
});

/** The `verifactu_records` table: each issuer's chain of registration records. */
export const verifactuRecordsRepository = {
  async insert(
    tx: Executor,
    hotelId: string,
    taxId: string,
    position: number,
    record: VerifactuRecord,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO verifactu_records (hotel_id, issuer_tax_id, position, invoice_id, number, fields, hash,
                                      previous_hash, generated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        hotelId,
        taxId,
        position,
        record.invoiceId,
        record.number,
        JSON.stringify(record.fields),
        record.hash,
        record.previousHash,
        record.generatedAt,
      ],
    );
  },

  async ofInvoice(ex: Executor, hotelId: string, invoiceId: string): Promise<VerifactuRecord | null> {
    const { rows } = await ex.query(
      `SELECT ${COLUMNS} FROM verifactu_records WHERE hotel_id = $1 AND invoice_id = $2`,
      [hotelId, invoiceId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** The hotel's records in chain order after `afterSeq`, at most `limit`. */
  async page(
    ex: Executor,
    hotelId: string,
    afterSeq: number,
    limit: number,
  ): Promise<(VerifactuRecord & { seq: number })[]> {
    const { rows } = await ex.query(
      `SELECT ${COLUMNS} FROM verifactu_records WHERE hotel_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [hotelId, afterSeq, limit],
    );
    return rows.map(toRecord);
  },
};
