import { randomUUID } from 'node:crypto';
import { hotelToday, nightsBetween, toRfc3339 } from '../calendar/dates.ts';
import type { Hotel } from '../catalog/catalog.schema.ts';
import type { AppContext } from '../context.ts';
import { loadHotelNights } from '../hotel-calendar/calendar.service.ts';
import { confirmationCode, hashSecret, randomToken } from '../infra/crypto/tokens.ts';
import { type Executor, finishWrite, sqlState, type WriteOptions } from '../infra/db/database.ts';
import { AppError, invalid } from '../infra/http/problems.ts';
import { domainMetrics } from '../infra/metrics/domain-metrics.ts';
import { assertUsableToken, type Payer, transactionWithPayments } from '../payments/payment-ledger.ts';
import { hotelOrFail, noOfferError, ratePlanSummary } from './availability.service.ts';
import type { CancelRequest, ModifyRequest, QuoteResponse, ReservationRequest } from './booking.schemas.ts';
import { inventoryRepository, type NightShortage } from './inventory.repository.ts';
import { quoteRepository } from './quote.repository.ts';
import {
  type PaymentStatus,
  type ReservationRow,
  reservationRepository as reservations,
  type StoredStay,
} from './reservation.repository.ts';
import { assertTokenGrants, assertVersion, notFound } from './reservation-access.ts';
import { evaluateStay } from './rules/availability.ts';
import { cancellationCharge } from './rules/cancellation.ts';
import { type StayPrice, sellsRoomType } from './rules/pricing.ts';
import { findRestriction } from './rules/restrictions.ts';
import { validateStay } from './stay-validation.ts';

type Ctx = Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config' | 'payments'>;
type Log = { error(obj: unknown, msg: string): void };

export interface NewReservation {
  row: ReservationRow;
  accessToken: string;
}

function shortageError(hotel: Hotel, shortages: NightShortage[]): AppError {
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

function quoteAlreadyUsed(): AppError {
  return new AppError(
    'quote_already_used',
    'This quote already became a reservation; retry with the same Idempotency-Key to get it again.',
  );
}

function stayFromPrice(
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

async function recordCharge(
  tx: Executor,
  ctx: Ctx,
  row: ReservationRow,
  payer: Payer,
  token: string,
  amount: number,
  purpose: 'booking' | 'modification',
) {
  const charge = await payer.charge(amount, row.currency, token, `${row.code}/${purpose}`);
  await reservations.recordPayment(tx, {
    reservationId: row.id,
    kind: 'charge',
    purpose,
    amount,
    currency: row.currency,
    provider: ctx.payments.name,
    providerRef: charge.providerRef,
    brand: charge.brand,
    last4: charge.last4,
  });
}

async function recordRefund(
  tx: Executor,
  ctx: Ctx,
  row: ReservationRow,
  payer: Payer,
  amount: number,
  purpose: 'modification' | 'cancellation',
) {
  payer.refund(amount, row.currency, `${row.code}/${purpose}`);
  await reservations.recordPayment(tx, {
    reservationId: row.id,
    kind: 'refund',
    purpose,
    amount,
    currency: row.currency,
    provider: ctx.payments.name,
    providerRef: `refund_${randomUUID()}`,
  });
}

/**
 * Turns a quote into a reservation (API.md 2.3): rooms taken, reservation written and (prepaid
 * plans) card charged in one transaction, so a failure leaves no rooms taken and nothing charged.
 */
export async function createReservation(
  ctx: Ctx,
  log: Log,
  body: ReservationRequest,
  options: WriteOptions<NewReservation> = {},
): Promise<NewReservation> {
  const stored = await quoteRepository.find(ctx.db, body.quoteId);
  if (!stored) throw invalid('/quoteId', `unknown quote "${body.quoteId}"`);
  const now = ctx.clock.now();
  const quote = stored.body as QuoteResponse & { nightly: StayPrice['nightly'] };
  if (await quoteRepository.isUsed(ctx.db, body.quoteId)) throw quoteAlreadyUsed();
  if (stored.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('quote_expired', `The quote expired at ${quote.expiresAt}; ask for a new quote.`);
  }
  const hotel = hotelOrFail(ctx, quote.hotelId);
  // The catalogue may have withdrawn the room type or rate plan since the quote: nothing left to sell.
  const plan = hotel.ratePlans.find((p) => p.id === quote.ratePlan.id);
  if (
    !plan ||
    !sellsRoomType(plan, quote.roomType.id) ||
    !hotel.roomTypes.some((r) => r.id === quote.roomType.id)
  ) {
    const message = `The ${quote.roomType.name} is no longer sold under the ${quote.ratePlan.name} rate; ask for a new quote.`;
    throw new AppError('no_availability', message, {
      errors: [{ roomTypeId: quote.roomType.id, reason: 'sold_out', message }],
    });
  }
  const prepaid = quote.ratePlan.prepayment === 'full';
  if (prepaid && !body.payment) {
    throw new AppError(
      'payment_required',
      `The ${quote.ratePlan.name} rate is paid at booking: send payment.token.`,
    );
  }
  if (prepaid && body.payment) assertUsableToken(ctx, body.payment.token, '/payment/token');

  // Restrictions may have changed since the quote (catalogue reload); the price stays locked.
  const today = hotelToday(hotel.timezone, now);
  const violation = findRestriction(
    hotel,
    {
      roomTypeId: quote.roomType.id,
      ratePlanId: quote.ratePlan.id,
      checkIn: quote.checkIn,
      checkOut: quote.checkOut,
      today,
    },
    await loadHotelNights(ctx.db, hotel, quote.checkIn, quote.checkOut, [quote.roomType.id]),
  );
  if (violation) {
    throw new AppError('restriction_window', violation.message, {
      errors: [{ roomTypeId: quote.roomType.id, reason: 'restricted', ...violation }],
    });
  }

  const accessToken = randomToken('rat_', 32);
  const stay = stayFromPrice(hotel, quote, quote.roomType.id, quote.ratePlan.id, quote);
  const created = await transactionWithPayments(ctx, log, async (tx, payer) => {
    const shortages = await inventoryRepository.apply(tx, hotel.id, [
      { roomTypeId: quote.roomType.id, checkIn: quote.checkIn, checkOut: quote.checkOut, rooms: quote.rooms },
    ]);
    if (shortages.length > 0) {
      // A concurrent request with the same quote may have just taken the last rooms (it committed
      // while this one waited for the night locks): that is a used quote, not a sold-out stay.
      if (await quoteRepository.isUsed(tx, quote.id)) throw quoteAlreadyUsed();
      throw shortageError(hotel, shortages);
    }
    let inserted: ReservationRow;
    try {
      inserted = await reservations.insert(tx, {
        code: confirmationCode(),
        hotelId: hotel.id,
        quoteId: quote.id,
        stay,
        checkIn: quote.checkIn,
        checkOut: quote.checkOut,
        rooms: quote.rooms,
        guest: body.guest,
        specialRequests: body.specialRequests ?? null,
        accessTokenHash: hashSecret(accessToken),
        now,
      });
    } catch (error) {
      // A concurrent request with the same quote committed first: the unique quote_id decides.
      if (
        sqlState(error) === '23505' &&
        /quote_id/.test(String((error as { constraint?: string }).constraint ?? (error as Error).message))
      ) {
        throw quoteAlreadyUsed();
      }
      throw error;
    }
    let row = inserted;
    if (prepaid && body.payment) {
      await recordCharge(tx, ctx, inserted, payer, body.payment.token, inserted.totalAmount, 'booking');
      // Part of creation, not a change: the version stays 1.
      row = await reservations.markPaid(tx, inserted.id, inserted.totalAmount);
    }
    return finishWrite(tx, { row, accessToken }, options);
  });
  domainMetrics.reservationCreated(created.row.hotelId);
  return created;
}

/** Finds and locks a reservation for a change, checking credential and version first. */
async function lockForChange(tx: Executor, code: string, token: string, ifMatch: string | undefined) {
  const row = await reservations.findByCode(tx, code, { forUpdate: true });
  if (!row) throw notFound();
  assertTokenGrants(row, token);
  assertVersion(row, ifMatch);
  return row;
}

const STAY_FIELDS = [
  'checkIn',
  'checkOut',
  'adults',
  'children',
  'rooms',
  'services',
  'roomTypeId',
  'ratePlanId',
] as const;

/** Services and children ages are sets of facts, not sequences: a new order is not a change. */
function sameMembers(a: readonly (string | number)[], b: readonly (string | number)[]) {
  const sorted = (list: readonly (string | number)[]) => [...list].map(String).sort();
  const x = sorted(a);
  const y = sorted(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * PATCH (API.md 2.4): a stay change is re-priced at current prices and re-checked; old rooms are
 * released and new ones taken in the same transaction, so a refused change leaves everything as it was.
 */
export async function modifyReservation(
  ctx: Ctx,
  log: Log,
  code: string,
  token: string,
  ifMatch: string | undefined,
  patch: ModifyRequest,
  options: WriteOptions<ReservationRow> = {},
): Promise<ReservationRow> {
  const now = ctx.clock.now();
  if (patch.payment) assertUsableToken(ctx, patch.payment.token, '/payment/token');
  return transactionWithPayments(ctx, log, async (tx, payer) => {
    const row = await lockForChange(tx, code, token, ifMatch);
    if (row.status === 'cancelled') {
      throw new AppError('reservation_cancelled', 'This reservation is cancelled and can no longer change.');
    }
    const next: ReservationRow = { ...row, guest: { ...row.guest }, stay: row.stay };
    const current = {
      checkIn: row.checkIn,
      checkOut: row.checkOut,
      adults: row.stay.adults,
      children: row.stay.children,
      rooms: row.rooms,
      services: row.stay.services,
      roomTypeId: row.roomTypeId,
      ratePlanId: row.ratePlanId,
    };
    const wanted = {
      checkIn: patch.checkIn ?? current.checkIn,
      checkOut: patch.checkOut ?? current.checkOut,
      adults: patch.adults ?? current.adults,
      children: patch.children ?? current.children,
      rooms: patch.rooms ?? current.rooms,
      services: patch.services ? [...new Set(patch.services)] : current.services,
      roomTypeId: patch.roomTypeId ?? current.roomTypeId,
      ratePlanId: patch.ratePlanId ?? current.ratePlanId,
    };
    const stayChanged = STAY_FIELDS.some((f) => {
      const a = current[f];
      const b = wanted[f];
      return Array.isArray(a) ? !sameMembers(a, b as (string | number)[]) : a !== b;
    });
    let changed = false;

    if (stayChanged) {
      if (!row.stay.ratePlan.refundable) {
        throw new AppError(
          'not_modifiable',
          `The ${row.stay.ratePlan.name} rate does not allow changes to the stay.`,
        );
      }
      const hotel = hotelOrFail(ctx, row.hotelId);
      const today = hotelToday(hotel.timezone, now);
      // A guest already in house may still extend: only a moved arrival must be in the future.
      // Services as sent, so that error paths point into the body.
      const asSent = { ...wanted, services: patch.services ?? wanted.services };
      validateStay(hotel, asSent, today, { checkInMayBePast: wanted.checkIn === row.checkIn });
      // Rooms are checked by the transactional take below, which first releases the rooms held now.
      const { offers, unavailable } = evaluateStay(
        hotel,
        { ...wanted, today },
        () => Number.POSITIVE_INFINITY,
        {
          roomTypeId: wanted.roomTypeId,
          ratePlanId: wanted.ratePlanId,
        },
        await loadHotelNights(tx, hotel, wanted.checkIn, wanted.checkOut, [wanted.roomTypeId]),
      );
      const offer = offers[0];
      if (!offer) throw noOfferError(unavailable);
      const shortages = await inventoryRepository.apply(tx, hotel.id, [
        { roomTypeId: row.roomTypeId, checkIn: row.checkIn, checkOut: row.checkOut, rooms: -row.rooms },
        {
          roomTypeId: wanted.roomTypeId,
          checkIn: wanted.checkIn,
          checkOut: wanted.checkOut,
          rooms: wanted.rooms,
        },
      ]);
      if (shortages.length > 0) throw shortageError(hotel, shortages);
      next.stay = stayFromPrice(hotel, wanted, wanted.roomTypeId, wanted.ratePlanId, offer.price);
      next.checkIn = wanted.checkIn;
      next.checkOut = wanted.checkOut;
      next.rooms = wanted.rooms;
      next.roomTypeId = wanted.roomTypeId;
      next.ratePlanId = wanted.ratePlanId;
      next.totalAmount = next.stay.total.amount;
      changed = true;

      // Prepaid plans keep the stay paid in full; otherwise only money paid beyond the new total returns.
      const difference = next.totalAmount - row.paidAmount;
      if (next.stay.ratePlan.prepayment === 'full' && difference > 0) {
        if (!patch.payment) {
          throw new AppError(
            'payment_required',
            `The new stay costs ${difference} more (minor units); send payment.token to pay the difference.`,
          );
        }
        await recordCharge(tx, ctx, row, payer, patch.payment.token, difference, 'modification');
        next.paidAmount = next.totalAmount;
        next.paymentStatus = 'paid';
      } else if (difference < 0 && row.paidAmount > 0) {
        await recordRefund(tx, ctx, row, payer, -difference, 'modification');
        next.paidAmount = next.totalAmount;
        next.paymentStatus = 'partially_refunded';
      }
    }

    if (patch.guest) {
      const { phone, ...names } = patch.guest;
      const guest = { ...next.guest, ...names };
      if (phone === null) delete guest.phone;
      else if (phone !== undefined) guest.phone = phone;
      if (JSON.stringify(guest) !== JSON.stringify(row.guest)) {
        next.guest = guest;
        changed = true;
      }
    }
    if (patch.specialRequests !== undefined && patch.specialRequests !== row.specialRequests) {
      next.specialRequests = patch.specialRequests;
      changed = true;
    }
    return finishWrite(tx, changed ? await reservations.update(tx, next, now) : row, options);
  });
}

/**
 * Cancel (API.md 2.5): rooms released, fee by the policy in force at booking, refund of what was
 * paid beyond the fee. Cancelling again answers the same reservation, with no second fee or refund.
 */
export async function cancelReservation(
  ctx: Ctx,
  log: Log,
  code: string,
  token: string,
  ifMatch: string | undefined,
  body: CancelRequest | undefined,
  options: WriteOptions<ReservationRow> = {},
): Promise<ReservationRow> {
  const now = ctx.clock.now();
  // Set by the attempt that committed (a retried transaction starts over), so a repeated cancel,
  // which answers the reservation unchanged, is not counted as a cancellation.
  let cancelledNow = false;
  const cancelled = await transactionWithPayments(ctx, log, async (tx, payer) => {
    cancelledNow = false;
    const row = await reservations.findByCode(tx, code, { forUpdate: true });
    if (!row) throw notFound();
    assertTokenGrants(row, token);
    if (row.status === 'cancelled') return finishWrite(tx, row, options);
    assertVersion(row, ifMatch);
    const { fee, refund } = cancellationCharge({
      policy: row.stay.cancellationPolicy,
      total: row.totalAmount,
      paid: row.paidAmount,
      now,
    });
    const unreleased = await inventoryRepository.apply(tx, row.hotelId, [
      { roomTypeId: row.roomTypeId, checkIn: row.checkIn, checkOut: row.checkOut, rooms: -row.rooms },
    ]);
    // Cannot happen while every confirmed reservation's rooms are counted in `sold`; if it does, the
    // guest still cancels and the drift is left for a human rather than silently ignored.
    if (unreleased.length > 0)
      log.error(
        { reservation: row.code, unreleased },
        'inventory did not hold the rooms released by a cancellation',
      );
    if (refund > 0) await recordRefund(tx, ctx, row, payer, refund, 'cancellation');
    const paidAfter = row.paidAmount - refund;
    let paymentStatus: PaymentStatus = row.paymentStatus;
    if (refund > 0) paymentStatus = paidAfter === 0 ? 'refunded' : 'partially_refunded';
    cancelledNow = true;
    const updated = await reservations.update(
      tx,
      {
        ...row,
        status: 'cancelled',
        paidAmount: paidAfter,
        paymentStatus,
        cancellation: {
          cancelledAt: toRfc3339(now),
          reason: body?.reason ?? null,
          fee: { amount: fee, currency: row.currency },
          refund: { amount: refund, currency: row.currency },
        },
      },
      now,
    );
    return finishWrite(tx, updated, options);
  });
  if (cancelledNow) domainMetrics.reservationCancelled(cancelled.hotelId);
  return cancelled;
}
