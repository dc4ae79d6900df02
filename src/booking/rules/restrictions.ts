import { DEFAULT_MAX_UNPAID_NIGHTS, type Hotel } from '../../catalog/catalog.schema.ts';
import { addDays, eachNight, nightsBetween } from '../../dates/dates.ts';
import type { RuleSource, StayLimit } from '../../hotel-calendar/catalogue-night.ts';
import { type HotelNights, hotelNights } from '../../hotel-calendar/hotel-nights.ts';

export type RestrictionRule =
  | 'stop_sell'
  | 'closed_to_arrival'
  | 'closed_to_departure'
  | 'min_stay'
  | 'max_stay'
  | 'booking_window'
  | 'unpaid_stay';

export type RestrictionViolation = {
  rule: RestrictionRule;
  /** A sentence a client can show as is. */
  message: string;
  /** The dates concerned: the stopped nights, the arrival or the departure date. */
  dates: string[];
  /** The period of the restriction that decided (absent for the booking window). */
  from?: string;
  to?: string;
  minStay?: number;
  maxStay?: number;
  maxDaysBeforeArrival?: number;
  /** Booking window: the latest arrival date bookable today. */
  latestArrival?: string;
  /** Unpaid stay: the most nights a rate plan that takes no payment at booking may hold. */
  maxUnpaidNights?: number;
};

export type RestrictionQuery = {
  roomTypeId: string;
  ratePlanId: string;
  checkIn: string;
  checkOut: string;
  /** The hotel's calendar date now. */
  today: string;
};

function listDates(dates: string[]): string {
  if (dates.length <= 1) return dates.join('');
  return `${dates.slice(0, -1).join(', ')} and ${dates.at(-1)}`;
}

function period(r: RuleSource): string {
  return r.from === r.to ? `on ${r.from}` : `from ${r.from} to ${r.to}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Restriction rules (API.md section 6) for one room type under one rate plan, on the restrictions
 * in force each night (`nights`: the catalogue merged with the calendar's overrides; the catalogue
 * alone by default). When several are broken the first in this order is returned: stop_sell,
 * closed_to_arrival, closed_to_departure, min_stay, max_stay, booking_window, unpaid_stay.
 */
export function findRestriction(
  hotel: Hotel,
  query: RestrictionQuery,
  nights: HotelNights = hotelNights(hotel),
): RestrictionViolation | null {
  const { roomTypeId, ratePlanId, checkIn, checkOut } = query;
  // A dense window (search) holds the pair's nights by index and says at once whether any is
  // stop-sold; only then, or without one, are the nights looked up one by one (the message names them).
  const window = nights.stayNights?.(roomTypeId, ratePlanId, checkIn, checkOut) ?? null;
  let stopped: Array<{ night: string; rule: RuleSource | null }> | null = null;
  if (!window || window.stopSold) {
    for (const night of eachNight(checkIn, checkOut)) {
      const rule = nights.restrictionsOn(roomTypeId, ratePlanId, night).stopSell;
      if (!rule) continue;
      stopped ??= [];
      stopped.push({ night, rule });
    }
  }
  const arrival = window
    ? window.restrictions(window.from)
    : nights.restrictionsOn(roomTypeId, ratePlanId, checkIn);
  const departure = window
    ? window.restrictions(window.to)
    : nights.restrictionsOn(roomTypeId, ratePlanId, checkOut);
  const length = window ? window.to - window.from : eachNight(checkIn, checkOut).length;
  return (
    (stopped ? stopSell(stopped) : null) ??
    closedOn('closed_to_arrival', checkIn, arrival.closedToArrival) ??
    closedOn('closed_to_departure', checkOut, departure.closedToDeparture) ??
    stayLength('min_stay', checkIn, length, arrival.minStay) ??
    stayLength('max_stay', checkIn, length, arrival.maxStay) ??
    bookingWindow(hotel.maxDaysBeforeArrival, checkIn, query.today) ??
    unpaidStay(hotel, ratePlanId, checkIn, length)
  );
}

function stopSell(nights: Array<{ night: string; rule: RuleSource | null }>): RestrictionViolation | null {
  const stopped = nights.filter((n) => n.rule !== null);
  // The restriction listed first among those stopping any night decides the period shown.
  const first = stopped
    .map((n) => n.rule as RuleSource)
    .reduce<RuleSource | null>((a, b) => (a === null || b.order < a.order ? b : a), null);
  if (!first) return null;
  const dates = stopped.map((n) => n.night);
  return {
    rule: 'stop_sell',
    message: `Not for sale on the ${dates.length === 1 ? 'night' : 'nights'} of ${listDates(dates)}.`,
    dates,
    from: first.from,
    to: first.to,
  };
}

function closedOn(
  rule: 'closed_to_arrival' | 'closed_to_departure',
  date: string,
  closed: RuleSource | null,
): RestrictionViolation | null {
  if (!closed) return null;
  const arrival = rule === 'closed_to_arrival';
  return {
    rule,
    message: `${arrival ? 'Arrival' : 'Departure'} is not possible on ${date}.`,
    dates: [date],
    from: closed.from,
    to: closed.to,
  };
}

function stayLength(
  rule: 'min_stay' | 'max_stay',
  checkIn: string,
  nights: number,
  strictest: StayLimit | null,
): RestrictionViolation | null {
  const isMin = rule === 'min_stay';
  if (!strictest || (isMin ? nights >= strictest.nights : nights <= strictest.nights)) return null;
  const limit = strictest.nights;
  return {
    rule,
    message: `${isMin ? 'Minimum' : 'Maximum'} stay is ${plural(limit, 'night')} for arrivals ${period(strictest)}.`,
    dates: [checkIn],
    from: strictest.from,
    to: strictest.to,
    ...(isMin ? { minStay: limit } : { maxStay: limit }),
  };
}

function bookingWindow(maxDays: number | null, checkIn: string, today: string): RestrictionViolation | null {
  if (maxDays === null || nightsBetween(today, checkIn) <= maxDays) return null;
  const latestArrival = addDays(today, maxDays);
  return {
    rule: 'booking_window',
    message: `Bookings open ${plural(maxDays, 'day')} before arrival; the latest arrival bookable today is ${latestArrival}.`,
    dates: [checkIn],
    maxDaysBeforeArrival: maxDays,
    latestArrival,
  };
}

/**
 * A rate plan that takes no payment at booking (`prepayment: none`, the rate plans of RatePlans
 * messages too) may hold rooms for at most the hotel's `maxUnpaidNights` (API.md 6): nobody holds
 * rooms for months without paying.
 */
function unpaidStay(
  hotel: Hotel,
  ratePlanId: string,
  checkIn: string,
  nights: number,
): RestrictionViolation | null {
  const plan = hotel.ratePlans.find((rp) => rp.id === ratePlanId);
  const limit = hotel.maxUnpaidNights ?? DEFAULT_MAX_UNPAID_NIGHTS;
  if (plan?.prepayment !== 'none' || nights <= limit) return null;
  return {
    rule: 'unpaid_stay',
    message: `Stays of more than ${plural(limit, 'night')} need a rate paid at booking; the ${plan.name} rate is paid at the hotel.`,
    dates: [checkIn],
    maxUnpaidNights: limit,
  };
}
