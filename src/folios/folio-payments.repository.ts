import type { Executor } from '../infra/db/database.ts';

export interface DeskPayment {
  id: string;
  kind: 'payment' | 'refund';
  method: 'cash' | 'card_terminal' | 'bank_transfer';
  amount: number;
  reference: string | null;
  at: Date;
}

const COLUMNS = 'id, kind, method, amount, reference, at';

const toPayment = (r: Record<string, unknown>): DeskPayment => ({
  id: r.id as string,
  kind: r.kind as DeskPayment['kind'],
  method: r.method as DeskPayment['method'],
  amount: Number(r.amount),
  reference: (r.reference as string | null) ?? null,
  at: r.at as Date,
});

/** The `folio_payments` table: money taken or given back at the desk. */
export const folioPaymentsRepository = {
  async ofReservation(ex: Executor, hotelId: string, reservationId: number): Promise<DeskPayment[]> {
    const { rows } = await ex.query(
      `SELECT ${COLUMNS} FROM folio_payments WHERE hotel_id = $1 AND reservation_id = $2 ORDER BY seq`,
      [hotelId, reservationId],
    );
    return rows.map(toPayment);
  },

  async insert(tx: Executor, hotelId: string, reservationId: number, p: DeskPayment): Promise<DeskPayment> {
    const { rows } = await tx.query(
      `INSERT INTO folio_payments (hotel_id, id, reservation_id, kind, method, amount, reference, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [hotelId, p.id, reservationId, p.kind, p.method, p.amount, p.reference, p.at],
    );
    return toPayment(rows[0] as Record<string, unknown>);
  },
};
