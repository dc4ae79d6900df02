import type { Executor } from '../infra/db/database.ts';
import type { VatEntry } from './rules/invoice-totals.ts';

export interface Party {
  name: string;
  taxId?: string | undefined;
  address?: string | undefined;
  country?: string | undefined;
}

export interface InvoiceRow {
  id: string;
  hotelId: string;
  number: string;
  series: string;
  type: 'invoice' | 'credit_note';
  reservationId: number;
  reservationCode: string;
  issuedAt: Date;
  issueDate: string;
  currency: string;
  issuer: { name: string; taxId: string; address: string; country: string };
  recipient: Party;
  taxes: VatEntry[];
  total: number;
  language: 'en' | 'es' | 'pt';
  corrects: string | null;
  correctedBy: string | null;
  reason: string | null;
  seq: number;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

const COLUMNS = `i.id, i.hotel_id, i.number, i.series, i.type, i.reservation_id, r.code AS reservation_code,
  i.issued_at, i.issue_date, i.currency, i.issuer, i.recipient, i.taxes, i.total, i.language, i.corrects,
  i.corrected_by, i.reason, i.seq`;
const FROM = 'invoices i JOIN reservations r ON r.hotel_id = i.hotel_id AND r.id = i.reservation_id';

function toInvoice(r: Record<string, unknown>): InvoiceRow {
  return {
    id: r.id as string,
    hotelId: r.hotel_id as string,
    number: r.number as string,
    series: r.series as string,
    type: r.type as InvoiceRow['type'],
    reservationId: Number(r.reservation_id),
    reservationCode: r.reservation_code as string,
    issuedAt: r.issued_at as Date,
    issueDate: r.issue_date as string,
    currency: r.currency as string,
    issuer: json(r.issuer),
    recipient: json(r.recipient),
    taxes: json(r.taxes),
    total: Number(r.total),
    language: r.language as InvoiceRow['language'],
    corrects: (r.corrects as string | null) ?? null,
    correctedBy: (r.corrected_by as string | null) ?? null,
    reason: (r.reason as string | null) ?? null,
    seq: Number(r.seq),
  };
}

export type NewInvoice = Omit<InvoiceRow, 'reservationCode' | 'correctedBy' | 'seq'>;

/** The `invoices` table: written once; only `corrected_by` is ever set afterwards, once. */
export const invoicesRepository = {
  async insert(tx: Executor, i: NewInvoice): Promise<void> {
    await tx.query(
      `INSERT INTO invoices (hotel_id, id, number, series, type, reservation_id, issued_at, issue_date, currency,
                             issuer, recipient, taxes, total, language, corrects, reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        i.hotelId,
        i.id,
        i.number,
        i.series,
        i.type,
        i.reservationId,
        i.issuedAt,
        i.issueDate,
        i.currency,
        JSON.stringify(i.issuer),
        JSON.stringify(i.recipient),
        JSON.stringify(i.taxes),
        i.total,
        i.language,
        i.corrects,
        i.reason,
      ],
    );
  },

  /**
   * By id (ids are unique across hotels); `forUpdate` (with the invoice's hotel: Citus refuses a
   * locking read not routed to one shard) serialises credit notes of one invoice.
   */
  async find(
    ex: Executor,
    id: string,
    options: { forUpdate?: { hotelId: string } } = {},
  ): Promise<InvoiceRow | null> {
    const { rows } = await ex.query(
      options.forUpdate
        ? `SELECT ${COLUMNS} FROM ${FROM} WHERE i.hotel_id = $2 AND i.id = $1 FOR UPDATE OF i`
        : `SELECT ${COLUMNS} FROM ${FROM} WHERE i.id = $1`,
      options.forUpdate ? [id, options.forUpdate.hotelId] : [id],
    );
    return rows[0] ? toInvoice(rows[0]) : null;
  },

  /** An invoice of a known hotel: the lookup a shard by hotel answers alone. */
  async findInHotel(ex: Executor, hotelId: string, id: string): Promise<InvoiceRow | null> {
    const { rows } = await ex.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE i.hotel_id = $1 AND i.id = $2`, [
      hotelId,
      id,
    ]);
    return rows[0] ? toInvoice(rows[0]) : null;
  },

  async markCorrected(tx: Executor, hotelId: string, id: string, creditNoteId: string): Promise<void> {
    await tx.query(
      `UPDATE invoices SET corrected_by = $3 WHERE hotel_id = $1 AND id = $2 AND corrected_by IS NULL`,
      [hotelId, id, creditNoteId],
    );
  },

  /** A reservation's invoices and credit notes, in issue order. */
  async ofReservation(ex: Executor, hotelId: string, reservationId: number): Promise<InvoiceRow[]> {
    const { rows } = await ex.query(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE i.hotel_id = $1 AND i.reservation_id = $2 ORDER BY i.seq`,
      [hotelId, reservationId],
    );
    return rows.map(toInvoice);
  },

  /** The hotel's invoices issued on hotel-local dates `from`..`to` in issue order, after `afterSeq`. */
  async list(
    ex: Executor,
    q: { hotelId: string; from: string | null; to: string | null; afterSeq: number; limit: number },
  ): Promise<InvoiceRow[]> {
    const { rows } = await ex.query(
      `SELECT ${COLUMNS} FROM ${FROM}
       WHERE i.hotel_id = $1 AND i.seq > $2 AND ($3::text IS NULL OR i.issue_date >= $3)
         AND ($4::text IS NULL OR i.issue_date <= $4)
       ORDER BY i.seq LIMIT $5`,
      [q.hotelId, q.afterSeq, q.from, q.to, q.limit],
    );
    return rows.map(toInvoice);
  },
};
