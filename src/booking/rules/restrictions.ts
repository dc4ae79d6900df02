import { addDays, eachNight, nightsBetween } from '../../calendar/dates.ts';
import type { Hotel, RestrictionDef } from '../../catalog/catalog.schema.ts';

export type RestrictionRule =
  | 'stop_sell'
  | 'closed_to_arrival'
  | 'closed_to_departure'
  | 'min_stay'
  | 'max_stay'
  | 'booking_window';

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
};

export type RestrictionQuery = {
  roomTypeId: string;
  ratePlanId: string;
  checkIn: string;
  checkOut: string;
  /** The hotel's calendar date now. */
  today: string;
};

function appliesTo(r: RestrictionDef, roomTypeId: string, ratePlanId: string): boolean {
  return (
    (!r.roomTypes || r.roomTypes.includes(roomTypeId)) && (!r.ratePlans || r.ratePlans.includes(ratePlanId))
  );
}

function covers(r: RestrictionDef, date: string): boolean {
  return r.from <= date && date <= r.to;
}

function listDates(dates: string[]): string {
  if (dates.length <= 1) return dates.join('');
  return `${dates.slice(0, -1).join(', ')} and ${dates.at(-1)}`;
}

function period(r: RestrictionDef): string {
  return r.from === r.to ? `on ${r.from}` : `from ${r.from} to ${r.to}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Restriction rules (API.md section 6) for one room type under one rate plan. When several are
 * broken the first in this order is returned: stop_sell, closed_to_arrival, closed_to_departure,
 * min_stay, max_stay, booking_window.
 */
export function findRestriction(hotel: Hotel, query: RestrictionQuery): RestrictionViolation | null {
  const { checkIn, checkOut } = query;
  const nights = nightsBetween(checkIn, checkOut);
  const applicable = hotel.restrictions.filter((r) => appliesTo(r, query.roomTypeId, query.ratePlanId));
  return (
    stopSell(applicable, eachNight(checkIn, checkOut)) ??
    closedOn(applicable, 'closed_to_arrival', checkIn) ??
    closedOn(applicable, 'closed_to_departure', checkOut) ??
    stayLength(applicable, 'min_stay', checkIn, nights) ??
    stayLength(applicable, 'max_stay', checkIn, nights) ??
    bookingWindow(hotel.maxDaysBeforeArrival, checkIn, query.today)
  );
}

function stopSell(restrictions: RestrictionDef[], nights: string[]): RestrictionViolation | null {
  const stops = restrictions.filter((r) => r.stopSell);
  const stopped = nights.filter((night) => stops.some((r) => covers(r, night)));
  const first = stops.find((r) => stopped.some((night) => covers(r, night)));
  if (!first) return null;
  return {
    rule: 'stop_sell',
    message: `Not for sale on the ${stopped.length === 1 ? 'night' : 'nights'} of ${listDates(stopped)}.`,
    dates: stopped,
    from: first.from,
    to: first.to,
  };
}

function closedOn(
  restrictions: RestrictionDef[],
  rule: 'closed_to_arrival' | 'closed_to_departure',
  date: string,
): RestrictionViolation | null {
  const arrival = rule === 'closed_to_arrival';
  const closed = restrictions.find(
    (r) => (arrival ? r.closedToArrival : r.closedToDeparture) && covers(r, date),
  );
  if (!closed) return null;
  return {
    rule,
    message: `${arrival ? 'Arrival' : 'Departure'} is not possible on ${date}.`,
    dates: [date],
    from: closed.from,
    to: closed.to,
  };
}

function stayLength(
  restrictions: RestrictionDef[],
  rule: 'min_stay' | 'max_stay',
  checkIn: string,
  nights: number,
): RestrictionViolation | null {
  const isMin = rule === 'min_stay';
  let strictest: { restriction: RestrictionDef; limit: number } | undefined;
  for (const restriction of restrictions) {
    const limit = isMin ? restriction.minStay : restriction.maxStay;
    if (limit === undefined || !covers(restriction, checkIn)) continue;
    if (!strictest || (isMin ? limit > strictest.limit : limit < strictest.limit))
      strictest = { restriction, limit };
  }
  if (!strictest || (isMin ? nights >= strictest.limit : nights <= strictest.limit)) return null;
  const { restriction, limit } = strictest;
  return {
    rule,
    message: `${isMin ? 'Minimum' : 'Maximum'} stay is ${plural(limit, 'night')} for arrivals ${period(restriction)}.`,
    dates: [checkIn],
    from: restriction.from,
    to: restriction.to,
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
