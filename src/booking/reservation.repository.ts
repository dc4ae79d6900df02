import type { Executor } from '../infra/db/database.ts';
import type { Money } from '../payments/money.ts';
import type { PriceLine } from './rules/pricing.ts';

/** The priced stay as stored with a reservation: what was sold, at what price, under which policy. */
export interface StoredStay {
  nights: number;
  adults: number;
  children: number[];
  services: string[];
  roomType: { id: string; name: string };
  ratePlan: { id: string; name: string; refundable: boolean; prepayment: 'none' | 'full' };
  lines: PriceLine[];
  nightly: Array<{ date: string; amount: Money }>;
  total: Money;
  includedTaxes: Array<{ code: string; name: string; amount: Money }>;
  cancellationPolicy: { refundable: boolean; freeCancellationUntil: string | null; penalty: Money };
}

export interface StoredGuest {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
}

export interface Cancellation {
  cancelledAt: string;
  reason: string | null;
  fee: Money;
  refund: Money;
}

export type PaymentStatus = 'unpaid' | 'paid' | 'refunded' | 'partially_refunded';

export interface ReservationRow {
  id: number;
  code: string;
  hotelId: string;
  status: 'confirmed' | 'cancelled';
  roomTypeId: string;
  ratePlanId: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
  stay: StoredStay;
  guest: StoredGuest;
  specialRequests: string | null;
  totalAmount: number;
  currency: string;
  paidAmount: number;
  paymentStatus: PaymentStatus;
  cancellation: Cancellation | null;
  checkinStatus: 'not_started' | 'in_progress' | 'completed';
  accessTokenHash: Buffer;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, code, hotel_id, status, room_type_id, rate_plan_id, check_in, check_out, rooms, stay, guest,
  special_requests, total_amount, currency, paid_amount, payment_status, cancellation, checkin_status,
  access_token_hash, version, created_at, updated_at`;

function toRow(r: Record<string, unknown>): ReservationRow {
  return {
    id: r.id as number,
    code: r.code as string,
    hotelId: r.hotel_id as string,
    status: r.status as ReservationRow['status'],
    roomTypeId: r.room_type_id as string,
    ratePlanId: r.rate_plan_id as string,
    checkIn: r.check_in as string,
    checkOut: r.check_out as string,
    rooms: r.rooms as number,
    stay: r.stay as StoredStay,
    guest: r.guest as StoredGuest,
    specialRequests: (r.special_requests as string | null) ?? null,
    totalAmount: r.total_amount as number,
    currency: r.currency as string,
    paidAmount: r.paid_amount as number,
    paymentStatus: r.payment_status as PaymentStatus,
    cancellation: (r.cancellation as Cancellation | null) ?? null,
    checkinStatus: r.checkin_status as ReservationRow['checkinStatus'],
    accessTokenHash: Buffer.from(r.access_token_hash as Uint8Array),
    version: r.version as number,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}

export interface NewReservation {
  code: string;
  hotelId: string;
  quoteId: string;
  stay: StoredStay;
  checkIn: string;
  checkOut: string;
  rooms: number;
  guest: StoredGuest;
  specialRequests: string | null;
  accessTokenHash: Buffer;
  now: Date;
}

export interface PaymentEntry {
  reservationId: number;
  kind: 'charge' | 'refund';
  purpose: 'booking' | 'modification' | 'cancellation' | 'checkin';
  amount: number;
  currency: string;
  provider: string;
  providerRef: string;
  brand?: string;
  last4?: string;
}

/** Data access for reservations and their payment ledger. */
export const reservationRepository = {
  async insert(tx: Executor, r: NewReservation): Promise<ReservationRow> {
    const { rows } = await tx.query(
      `INSERT INTO reservations (code, hotel_id, status, room_type_id, rate_plan_id, check_in, check_out, rooms,
         stay, guest, special_requests, total_amount, currency, payment_status, access_token_hash, quote_id,
         created_at, updated_at)
       VALUES ($1, $2, 'confirmed', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'unpaid', $13, $14, $15, $15)
       RETURNING ${COLUMNS}`,
      [
        r.code,
        r.hotelId,
        r.stay.roomType.id,
        r.stay.ratePlan.id,
        r.checkIn,
        r.checkOut,
        r.rooms,
        JSON.stringify(r.stay),
        JSON.stringify(r.guest),
        r.specialRequests,
        r.stay.total.amount,
        r.stay.total.currency,
        r.accessTokenHash,
        r.quoteId,
        r.now,
      ],
    );
    return toRow(rows[0] as Record<string, unknown>);
  },

  /** `forUpdate` locks the row for the rest of the transaction: modifications serialise per reservation. */
  async findByCode(
    db: Executor,
    code: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<ReservationRow | null> {
    const { rows } = await db.query(
      `SELECT ${COLUMNS} FROM reservations WHERE code = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
      [code],
    );
    return rows[0] ? toRow(rows[0]) : null;
  },

  /** Writes the changed state back and bumps the version: the ETag every client sees changes with it. */
  async update(tx: Executor, r: ReservationRow, now: Date): Promise<ReservationRow> {
    const { rows } = await tx.query(
      `UPDATE reservations SET status = $2, room_type_id = $3, rate_plan_id = $4, check_in = $5, check_out = $6,
         rooms = $7, stay = $8, guest = $9, special_requests = $10, total_amount = $11, paid_amount = $12,
         payment_status = $13, cancellation = $14, version = version + 1, updated_at = $15
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [
        r.id,
        r.status,
        r.stay.roomType.id,
        r.stay.ratePlan.id,
        r.checkIn,
        r.checkOut,
        r.rooms,
        JSON.stringify(r.stay),
        JSON.stringify(r.guest),
        r.specialRequests,
        r.stay.total.amount,
        r.paidAmount,
        r.paymentStatus,
        r.cancellation ? JSON.stringify(r.cancellation) : null,
        now,
      ],
    );
    return toRow(rows[0] as Record<string, unknown>);
  },

  async markPaid(tx: Executor, id: number, amount: number): Promise<ReservationRow> {
    const { rows } = await tx.query(
      `UPDATE reservations SET paid_amount = $2, payment_status = 'paid' WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, amount],
    );
    return toRow(rows[0] as Record<string, unknown>);
  },

  async recordPayment(tx: Executor, p: PaymentEntry): Promise<void> {
    await tx.query(
      `INSERT INTO payments (reservation_id, kind, purpose, amount, currency, provider, provider_ref, brand, last4)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        p.reservationId,
        p.kind,
        p.purpose,
        p.amount,
        p.currency,
        p.provider,
        p.providerRef,
        p.brand ?? null,
        p.last4 ?? null,
      ],
    );
  },
};
