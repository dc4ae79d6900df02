import { nightsBetween } from '../../calendar/dates.ts';
import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { AppContext } from '../../context.ts';
import type { EventType } from '../../events/event-types.ts';
import { recordEvent } from '../../events/record-event.ts';
import type { Executor, Transaction, WriteOptions } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { chargeWithinTransaction, type PaymentDeps, refundWithinTransaction } from '../../payments/charge.ts';
import type { PaymentPurpose } from '../../payments/payment-ledger.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow, StoredStay } from '../../reservations/reservation.row.ts';
import { operatorReservationView } from '../../reservations/reservation.view.ts';
import { ratePlanSummary } from '../availability.service.ts';
import type { NightShortage } from '../inventory.repository.ts';
import type { StayPrice } from '../rules/pricing.ts';
import { type Authority, assertAuthority, assertVersion, notFound } from './authority.ts';

/** What every reservation command needs: the app's parts and the request's log. */
export type CommandContext = Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config' | 'payments'> & {
  log: PaymentDeps['log'];
};

/** Options of a command that changes a reservation: the idempotent answer's hook, and `If-Match`. */
export interface ChangeOptions<T> extends WriteOptions<T> {
  ifMatch?: string | undefined;
}

/** Finds and locks the reservation for a change, checking the caller's authority (and `If-Match`). */
export async function lockForChange(
  tx: Executor,
  code: string,
  authority: Authority,
  ifMatch: string | undefined,
  { checkVersion = true } = {},
): Promise<ReservationRow> {
  const row = await reservations.findByCode(tx, code, { forUpdate: true });
  if (!row) throw notFound();
  assertAuthority(row, authority);
  if (checkVersion) assertVersion(row, ifMatch);
  return row;
}

/** A reservation event, in the command's transaction, carrying the reservation as the hotel sees it. */
export async function recordReservationEvent(tx: Executor, type: EventType, row: ReservationRow) {
  await recordEvent(tx, {
    type,
    hotelId: row.hotelId,
    data: { reservation: operatorReservationView(row) },
  });
}

/** Money that moved in a command: raised as `payment.*` events once the reservation's final state is known. */
export interface MoneyMoved {
  kind: 'charge' | 'refund';
  purpose: PaymentPurpose;
  amount: number;
}

export async function recordPaymentEvents(tx: Executor, row: ReservationRow, moved: readonly MoneyMoved[]) {
  for (const m of moved) {
    await recordEvent(tx, {
      type: m.kind === 'charge' ? 'payment.succeeded' : 'payment.refunded',
      hotelId: row.hotelId,
      data: {
        reservation: operatorReservationView(row),
        payment: { amount: { amount: m.amount, currency: row.currency }, kind: m.kind, purpose: m.purpose },
      },
    });
  }
}

/** Charges the card for a reservation inside `tx` (refunded if `tx` does not commit). */
export async function chargeFor(
  tx: Transaction,
  ctx: CommandContext,
  row: ReservationRow,
  token: string,
  amount: number,
  purpose: PaymentPurpose,
  /** What the payment is for, the same on a retry of the request (a provider's idempotency key). */
  idempotencyBasis: string,
): Promise<MoneyMoved> {
  await chargeWithinTransaction(tx, ctx, {
    reservationId: row.id,
    purpose,
    amount,
    currency: row.currency,
    token,
    reference: `${row.code}/${purpose}`,
    idempotencyBasis,
    hotelId: row.hotelId,
  });
  return { kind: 'charge', purpose, amount };
}

/** Refunds a reservation inside `tx` (sent to the provider once `tx` has committed). */
export async function refundFor(
  tx: Transaction,
  ctx: CommandContext,
  row: ReservationRow,
  amount: number,
  purpose: PaymentPurpose,
): Promise<MoneyMoved> {
  await refundWithinTransaction(tx, ctx, {
    reservationId: row.id,
    purpose,
    amount,
    currency: row.currency,
    reference: `${row.code}/${purpose}`,
  });
  return { kind: 'refund', purpose, amount };
}

export function shortageError(hotel: Hotel, shortages: NightShortage[]): AppError {
  const first = shortages[0] as NightShortage;
  const name = hotel.roomTypes.find((r) => r.id === first.roomTypeId)?.name ?? first.roomTypeId;
  return new AppError(
    'no_availability',
    first.left === 0
      ? `No ${name} is left for ${first.night}.`
      : `Only ${first.left} ${name} ${first.left === 1 ? 'is' : 'are'} left for ${first.night}.`,
    {
      errors: [
        {
          roomTypeId: first.roomTypeId,
          reason: 'sold_out',
          message: `Not enough rooms left on ${shortages.map((s) => s.night).join(', ')}.`,
          dates: shortages.map((s) => s.night),
        },
      ],
    },
  );
}

/** The priced stay to store with a reservation, from a quote or a re-priced offer. */
export function stayFromPrice(
  hotel: Hotel,
  stay: { checkIn: string; checkOut: string; adults: number; children: number[]; services: string[] },
  roomTypeId: string,
  ratePlanId: string,
  price: Pick<StayPrice, 'lines' | 'nightly' | 'total' | 'includedTaxes' | 'cancellationPolicy'>,
): StoredStay {
  const roomType = hotel.roomTypes.find((r) => r.id === roomTypeId);
  const plan = hotel.ratePlans.find((p) => p.id === ratePlanId);
  if (!roomType || !plan) throw new Error(`catalogue lost ${roomTypeId}/${ratePlanId}`);
  return {
    nights: nightsBetween(stay.checkIn, stay.checkOut),
    adults: stay.adults,
    children: stay.children,
    services: stay.services,
    roomType: { id: roomType.id, name: roomType.name },
    ratePlan: ratePlanSummary(plan),
    lines: price.lines,
    nightly: price.nightly,
    total: price.total,
    includedTaxes: price.includedTaxes,
    cancellationPolicy: price.cancellationPolicy,
  };
}
