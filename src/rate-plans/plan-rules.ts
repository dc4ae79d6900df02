import type { BookingRuleDef, PlanPricing, Weekday } from '../catalog/rate-plan.model.ts';
import { WEEKDAYS } from '../catalog/rate-plan.model.ts';
import { addDays, nightsBetween, weekdayIndex } from '../dates/dates.ts';

/** Why a booking rule refuses a stay, in the contract's restriction vocabulary (API.md 2.1). */
export type PlanRestriction = {
  rule:
    | 'stop_sell'
    | 'closed_to_arrival'
    | 'closed_to_departure'
    | 'min_stay'
    | 'max_stay'
    | 'booking_window';
  message: string;
  dates: string[];
  minStay?: number;
  maxStay?: number;
};

/** `mon` … `sun` of a date (weekdayIndex: 0 = Monday). */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[weekdayIndex(date)] as Weekday;
}

function within(from: string | undefined, to: string | undefined, date: string): boolean {
  return (from === undefined || from <= date) && (to === undefined || date <= to);
}

export { within as coversDate };

/** Does a rate price this night: its period covers the date and its weekdays (if any) the weekday? */
export function rateCoversNight(
  rate: { from?: string | undefined; to?: string | undefined; days?: readonly Weekday[] | undefined },
  night: string,
): boolean {
  return (
    within(rate.from, rate.to, night) && (rate.days === undefined || rate.days.includes(weekdayOf(night)))
  );
}

function allows(days: readonly Weekday[] | undefined, date: string): boolean {
  return days === undefined || days.includes(weekdayOf(date));
}

/**
 * Booking rules (HotelData 4.5, as rtapp checks them): the plan's rules for the room type and its
 * generic ones. A closed period refuses any night of the stay in it; a rule covering the departure
 * date checks its weekday; one covering the arrival checks the arrival weekday and the length of
 * stay; forward min/max stays are checked on every day of the stay, the departure day included.
 */
export function bookingRuleViolation(
  plan: PlanPricing,
  roomTypeId: string,
  checkIn: string,
  checkOut: string,
): PlanRestriction | null {
  const rules: BookingRuleDef[] = (plan.bookingRules ?? []).filter(
    (r) => r.roomTypeId === undefined || r.roomTypeId === roomTypeId,
  );
  if (rules.length === 0) return null;
  const los = nightsBetween(checkIn, checkOut);
  for (let night = checkIn; night < checkOut; night = addDays(night, 1)) {
    for (const r of rules) {
      if (r.closed && within(r.from, r.to, night))
        return { rule: 'stop_sell', message: `The rate plan is closed on ${night}.`, dates: [night] };
    }
  }
  for (const r of rules) {
    if (within(r.from, r.to, checkOut) && !allows(r.departureDays, checkOut))
      return {
        rule: 'closed_to_departure',
        message: `Departure is not possible on ${checkOut}.`,
        dates: [checkOut],
      };
    if (within(r.from, r.to, checkIn)) {
      if (!allows(r.arrivalDays, checkIn))
        return {
          rule: 'closed_to_arrival',
          message: `Arrival is not possible on ${checkIn}.`,
          dates: [checkIn],
        };
      const stay = stayLengthViolation(los, r.minStay, r.maxStay, checkIn);
      if (stay) return stay;
    }
  }
  for (let day = checkIn; day <= checkOut; day = addDays(day, 1)) {
    for (const r of rules) {
      if (!within(r.from, r.to, day)) continue;
      const stay = stayLengthViolation(los, r.forwardMinStay, r.forwardMaxStay, day);
      if (stay) return stay;
    }
  }
  return null;
}

function stayLengthViolation(
  los: number,
  min: number | undefined,
  max: number | undefined,
  date: string,
): PlanRestriction | null {
  if (min !== undefined && los < min)
    return {
      rule: 'min_stay',
      minStay: min,
      message: `The minimum stay is ${min} nights from ${date}.`,
      dates: [date],
    };
  if (max !== undefined && los > max)
    return {
      rule: 'max_stay',
      maxStay: max,
      message: `The maximum stay is ${max} nights from ${date}.`,
      dates: [date],
    };
  return null;
}

/** The offer's stay rules (first Offer's OfferRule): length of stay, weekdays, advance booking. */
export function stayRuleViolation(
  plan: PlanPricing,
  checkIn: string,
  checkOut: string,
  bookingDate: string,
): PlanRestriction | null {
  const rules = plan.stayRules;
  if (!rules) return null;
  const stay = stayLengthViolation(nightsBetween(checkIn, checkOut), rules.minStay, rules.maxStay, checkIn);
  if (stay) return stay;
  if (!allows(rules.arrivalDays, checkIn))
    return { rule: 'closed_to_arrival', message: `Arrival is not possible on ${checkIn}.`, dates: [checkIn] };
  if (!allows(rules.departureDays, checkOut))
    return {
      rule: 'closed_to_departure',
      message: `Departure is not possible on ${checkOut}.`,
      dates: [checkOut],
    };
  const ahead = nightsBetween(bookingDate, checkIn);
  if (rules.minAdvanceDays !== undefined && ahead < rules.minAdvanceDays)
    return {
      rule: 'booking_window',
      message: `This rate must be booked at least ${rules.minAdvanceDays} days before arrival.`,
      dates: [checkIn],
    };
  if (rules.maxAdvanceDays !== undefined && ahead > rules.maxAdvanceDays)
    return {
      rule: 'booking_window',
      message: `This rate can be booked at most ${rules.maxAdvanceDays} days before arrival.`,
      dates: [checkIn],
    };
  return null;
}
