import type { Hotel } from '../catalog/catalog.schema.ts';
import { addDays, nightsBetween, weekdayIndex } from '../dates/dates.ts';
import { type ProblemDetailEntry, validationProblem } from '../infra/http/problems.ts';
import { sellsRoomType } from '../rate-plans/priced-hotel.ts';
import {
  type CalendarPatch,
  type CalendarSet,
  DAYS_OF_WEEK,
  MAX_CALENDAR_NIGHTS,
} from './calendar.schemas.ts';
import type { PriceNightOverride, RoomNightOverride } from './hotel-nights.ts';

/** One update of a PATCH, resolved against the catalogue: what to write on which nights. */
export interface PlannedUpdate {
  roomTypeIds: string[];
  nights: string[];
  room: Partial<RoomNightOverride>;
  /** Every (room type, rate plan) pair whose plan sells the room type, for the price fields. */
  plans: Array<{ roomTypeId: string; ratePlanId: string }>;
  price: Partial<PriceNightOverride>;
}

const ROOM_FIELDS = [
  'rooms',
  'stopSell',
  'closedToArrival',
  'closedToDeparture',
  'minStay',
  'maxStay',
] as const satisfies ReadonlyArray<keyof RoomNightOverride>;
const PRICE_FIELDS = ['base', 'includedAdults', 'extraAdult', 'child'] as const satisfies ReadonlyArray<
  keyof PriceNightOverride
>;

function pick<K extends keyof CalendarSet>(set: CalendarSet, fields: readonly K[]) {
  return Object.fromEntries(fields.filter((f) => set[f] !== undefined).map((f) => [f, set[f]])) as {
    [F in K]?: CalendarSet[F];
  };
}

/** The nights `from`..`to` (inclusive) on the days of the week named (all when none). */
export function nightsOf(from: string, to: string, daysOfWeek?: readonly string[]): string[] {
  const days = daysOfWeek ? new Set(daysOfWeek.map((d) => DAYS_OF_WEEK.indexOf(d as never))) : null;
  const nights: string[] = [];
  for (let night = from; night <= to; night = addDays(night, 1)) {
    if (!days || days.has(weekdayIndex(night))) nights.push(night);
  }
  return nights;
}

/** `400` unless `from`..`to` is a range of 1 to MAX_CALENDAR_NIGHTS nights. */
export function rangeErrors(from: string, to: string, path: string): ProblemDetailEntry[] {
  if (to < from) return [{ path, message: `must not be before ${from}` }];
  if (nightsBetween(from, to) + 1 > MAX_CALENDAR_NIGHTS)
    return [{ path, message: `must be at most ${MAX_CALENDAR_NIGHTS} nights from ${from} (inclusive)` }];
  return [];
}

/**
 * Checks a PATCH against the hotel's catalogue (unknown room types and rate plans, price fields no
 * plan can take, empty ranges) and expands it, or throws one `400` naming every problem. The
 * updates apply in order: a later one wins for the fields and nights both name.
 */
export function planCalendarPatch(hotel: Hotel, body: CalendarPatch): PlannedUpdate[] {
  const errors: ProblemDetailEntry[] = [];
  const roomTypeIds = new Set(hotel.roomTypes.map((r) => r.id));
  const planIds = new Set(hotel.ratePlans.map((p) => p.id));
  const planned = body.updates.map((update, i): PlannedUpdate => {
    const at = `/updates/${i}`;
    update.roomTypeIds?.forEach((id, j) => {
      if (!roomTypeIds.has(id))
        errors.push({ path: `${at}/roomTypeIds/${j}`, message: `no room type "${id}" in ${hotel.id}` });
    });
    update.ratePlanIds?.forEach((id, j) => {
      if (!planIds.has(id))
        errors.push({ path: `${at}/ratePlanIds/${j}`, message: `no rate plan "${id}" in ${hotel.id}` });
    });
    const rangeProblems = rangeErrors(update.from, update.to, `${at}/to`);
    errors.push(...rangeProblems);
    const nights = rangeProblems.length > 0 ? [] : nightsOf(update.from, update.to, update.daysOfWeek);
    if (rangeProblems.length === 0 && nights.length === 0)
      errors.push({ path: `${at}/daysOfWeek`, message: `names no day from ${update.from} to ${update.to}` });

    const room = pick(update.set, ROOM_FIELDS);
    const price = pick(update.set, PRICE_FIELDS);
    if (typeof room.minStay === 'number' && typeof room.maxStay === 'number' && room.minStay > room.maxStay)
      errors.push({ path: `${at}/set/minStay`, message: 'must not be above maxStay' });
    if (update.ratePlanIds && Object.keys(room).length > 0)
      errors.push({
        path: `${at}/ratePlanIds`,
        message: 'applies to price fields only: rooms and restrictions are set per room type',
      });

    const types = (update.roomTypeIds ?? [...roomTypeIds]).filter((id) => roomTypeIds.has(id));
    const plansNamed = hotel.ratePlans.filter(
      (p) => !update.ratePlanIds || update.ratePlanIds.includes(p.id),
    );
    const plans = types.flatMap((roomTypeId) =>
      // An occupancy-priced plan's prices change through its pricing (catalogue or RatePlans message).
      plansNamed
        .filter((p) => !p.pricing && sellsRoomType(p, roomTypeId))
        .map((p) => ({ roomTypeId, ratePlanId: p.id })),
    );
    if (Object.keys(price).length > 0) {
      update.ratePlanIds?.forEach((id, j) => {
        if (planIds.has(id) && !plans.some((p) => p.ratePlanId === id))
          errors.push({ path: `${at}/ratePlanIds/${j}`, message: `"${id}" sells none of these room types` });
      });
      if (plans.length === 0 && !update.ratePlanIds)
        errors.push({
          path: `${at}/set`,
          message: 'no rate plan sells these room types: price fields need one',
        });
    }
    return { roomTypeIds: types, nights, room, plans, price };
  });
  if (errors.length === 0) {
    const from = body.updates.reduce((a, u) => (u.from < a ? u.from : a), body.updates[0]?.from ?? '');
    const to = body.updates.reduce((a, u) => (u.to > a ? u.to : a), body.updates[0]?.to ?? '');
    errors.push(
      ...rangeErrors(from, to, '/updates').map((e) => ({ ...e, message: `together ${e.message}` })),
    );
  }
  if (errors.length > 0) throw validationProblem(errors);
  return planned;
}
