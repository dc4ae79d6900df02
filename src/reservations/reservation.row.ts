import type { Static } from '@sinclair/typebox';
import type { Money as MoneySchema } from '../infra/http/common-schemas.ts';
import type { PriceLine } from './reservation.schemas.ts';

/** The one row type of the `reservations` table, used by booking, check-in and the operator API. */

type Money = Static<typeof MoneySchema>;

/** The priced stay as stored with a reservation: what was sold, at what price, under which policy. */
export interface StoredStay {
  nights: number;
  adults: number;
  children: number[];
  services: string[];
  roomType: { id: string; name: string };
  ratePlan: {
    id: string;
    name: string;
    refundable: boolean;
    prepayment: 'none' | 'full' | 'deposit';
    deposit?: { percent?: number; nights?: number };
    balanceDueDays?: number;
  };
  /** The quote's priced lines. */
  lines: PriceLine[];
  nightly: Array<{ date: string; amount: Money }>;
  total: Money;
  includedTaxes: Array<{ code: string; name: string; amount: Money }>;
  cancellationPolicy: { refundable: boolean; freeCancellationUntil: string | null; penalty: Money };
  /** A `deposit` plan's schedule (API.md 14.2), kept with the stay it pays for; absent otherwise. */
  paymentSchedule?: ScheduledPayment[];
  /** The card on file's brand and last 4 digits (a `deposit` plan), for the reservation's readers. */
  cardOnFile?: { brand?: string; last4?: string };
  /** The promotion code the stay is priced with (API.md 14.1); its discount is a `discount` line. */
  promotion?: { code: string; name: string };
}

/** One payment of a deposit plan's schedule, as stored (amounts in the reservation's currency). */
export interface ScheduledPayment {
  kind: 'deposit' | 'balance';
  dueAt: string;
  amount: number;
  status: 'paid' | 'scheduled' | 'failed' | 'cancelled';
  collection: 'card_on_file' | 'at_hotel';
}

export interface StoredGuest {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  /** The language of the guest's messages (API.md 10); absent on rows older than migration 030 = en. */
  language?: 'en' | 'es' | 'pt';
}

export interface Cancellation {
  cancelledAt: string;
  reason: string | null;
  fee: Money;
  refund: Money;
}

export type PaymentStatus = 'unpaid' | 'paid' | 'refunded' | 'partially_refunded';
export type StayStatus = 'expected' | 'in_house' | 'checked_out' | 'no_show';
export type CheckinStatus = 'not_started' | 'in_progress' | 'completed';
/** Who made the reservation: the public booking API or the hotel (API.md 7.2). */
export type ReservationSource = 'api' | 'operator';

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
  checkinStatus: CheckinStatus;
  accessTokenHash: Buffer;
  source: ReservationSource;
  internalNotes: string | null;
  stayStatus: StayStatus;
  arrivedAt: Date | null;
  departedAt: Date | null;
  roomNumbers: string[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * What the operator search `q` matches (API.md 7.2): code, guest names and e-mail, lower-cased with
 * accents stripped, so "joao" finds "João" on both engines without the unaccent extension.
 */
export function searchTextOf(code: string, guest: StoredGuest): string {
  return foldSearchText([code, guest.firstName, guest.lastName, guest.email].join(' '));
}

/** How `search_text` and a query `q` are folded so that they match: lower case, accents removed. */
export function foldSearchText(text: string): string {
  return text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
}

export const COLUMNS = `id, code, hotel_id, status, room_type_id, rate_plan_id, check_in, check_out, rooms, stay, guest,
  special_requests, total_amount, currency, paid_amount, payment_status, cancellation, checkin_status,
  access_token_hash, source, internal_notes, stay_status, arrived_at, departed_at, room_numbers, version,
  created_at, updated_at`;

/**
 * The first row of a statement that must answer one (an INSERT or UPDATE … RETURNING by key). None
 * is a defect of the caller's (a key of no reservation): said as such, not as a mapper's TypeError.
 */
export function oneReservation(rows: Record<string, unknown>[]): ReservationRow {
  const row = rows[0];
  if (row === undefined) throw new Error('a statement that must answer one reservation answered none');
  return toReservationRow(row);
}

/** The one mapper from a `reservations` row (selected with `COLUMNS`) to `ReservationRow`. */
export function toReservationRow(r: Record<string, unknown>): ReservationRow {
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
    checkinStatus: r.checkin_status as CheckinStatus,
    accessTokenHash: Buffer.from(r.access_token_hash as Uint8Array),
    source: r.source as ReservationSource,
    internalNotes: (r.internal_notes as string | null) ?? null,
    stayStatus: r.stay_status as StayStatus,
    arrivedAt: (r.arrived_at as Date | null) ?? null,
    departedAt: (r.departed_at as Date | null) ?? null,
    roomNumbers: [...((r.room_numbers as string[] | null) ?? [])],
    version: r.version as number,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}
