import { isCalendarDate } from '../../dates/dates.ts';
import type { PlanPricing } from '../rate-plan.model.ts';

type Period = { from?: string | undefined; to?: string | undefined };

function periodProblems(p: Period, at: string): string[] {
  const problems: string[] = [];
  if (p.from !== undefined && !isCalendarDate(p.from)) problems.push(`${at}/from: not a calendar date`);
  if (p.to !== undefined && !isCalendarDate(p.to)) problems.push(`${at}/to: not a calendar date`);
  if (problems.length === 0 && p.from !== undefined && p.to !== undefined && p.from > p.to)
    problems.push(`${at}/to: must not be before from (${p.from})`);
  return problems;
}

const overlaps = (a: Period, b: Period) =>
  (a.from === undefined || b.to === undefined || a.from <= b.to) &&
  (b.from === undefined || a.to === undefined || b.from <= a.to);

/** Two rates' weekdays share a day (absent: every day). */
const sameDay = (a: { days?: readonly string[] }, b: { days?: readonly string[] }) =>
  a.days === undefined || b.days === undefined || a.days.some((d) => b.days?.includes(d));

function limits(min: number | undefined, max: number | undefined, at: string, what: string): string[] {
  return min !== undefined && max !== undefined && min > max
    ? [`${at}: ${what} minimum above its maximum`]
    : [];
}

/**
 * What makes an occupancy-priced plan ambiguous or unpriceable, as `path: message` (JSON pointer
 * paths under `at`): unknown room types, backwards or overlapping periods, age bands that overlap,
 * minimums above maximums. The catalogue and the RatePlans message refuse the same faults.
 */
export function pricingProblems(plan: PlanPricing, roomTypeIds: ReadonlySet<string>, at: string): string[] {
  const problems: string[] = [];
  const known = (id: string | undefined, path: string) => {
    if (id !== undefined && !roomTypeIds.has(id))
      problems.push(`${path}: unknown room type ${JSON.stringify(id)}`);
  };
  plan.rates.forEach((rate, i) => {
    const here = `${at}/rates/${i}`;
    known(rate.roomTypeId, `${here}/roomTypeId`);
    problems.push(...periodProblems(rate, here));
    const j = plan.rates.findIndex(
      (other, k) =>
        k < i && other.roomTypeId === rate.roomTypeId && overlaps(other, rate) && sameDay(other, rate),
    );
    if (j >= 0) problems.push(`${here}: overlaps rate ${j} of the same room type`);
    const guests = rate.byGuests.map((b) => b.guests);
    if (new Set(guests).size !== guests.length)
      problems.push(`${here}/byGuests: a number of guests is listed twice`);
    const bands = rate.children ?? [];
    bands.forEach((band, b) => {
      if (band.minAge !== undefined && band.maxAge !== undefined && band.minAge >= band.maxAge)
        problems.push(`${here}/children/${b}: minAge must be below maxAge`);
    });
    for (let age = 0; age <= 17; age++) {
      const matching = bands.filter((x) => (x.minAge ?? 0) <= age && age < (x.maxAge ?? 1000)).length;
      if (matching > 1) {
        problems.push(`${here}/children: more than one age band takes a child aged ${age}`);
        break;
      }
    }
  });
  (plan.bookingRules ?? []).forEach((rule, i) => {
    const here = `${at}/bookingRules/${i}`;
    known(rule.roomTypeId, `${here}/roomTypeId`);
    problems.push(...periodProblems(rule, here));
    problems.push(...limits(rule.minStay, rule.maxStay, here, 'stay'));
  });
  const ids = new Set<string>();
  (plan.supplements ?? []).forEach((supplement, i) => {
    const here = `${at}/supplements/${i}`;
    if (ids.has(supplement.id))
      problems.push(`${here}/id: duplicate supplement id ${JSON.stringify(supplement.id)}`);
    ids.add(supplement.id);
    supplement.prices.forEach((price, k) => {
      known(price.roomTypeId, `${here}/prices/${k}/roomTypeId`);
      problems.push(...periodProblems(price, `${here}/prices/${k}`));
    });
  });
  const r = plan.stayRules;
  if (r) {
    problems.push(...limits(r.minStay, r.maxStay, `${at}/stayRules`, 'stay'));
    problems.push(...limits(r.minAdvanceDays, r.maxAdvanceDays, `${at}/stayRules`, 'advance booking'));
    problems.push(...limits(r.minAdults, r.maxAdults, `${at}/stayRules`, 'adults'));
    problems.push(...limits(r.minChildren, r.maxChildren, `${at}/stayRules`, 'children'));
    if (r.childMinAge !== undefined && r.childMaxAge !== undefined && r.childMinAge >= r.childMaxAge)
      problems.push(`${at}/stayRules/childMaxAge: must be above childMinAge`);
  }
  const f = plan.freeNights;
  if (f && f.nightsDiscounted > f.nightsRequired)
    problems.push(`${at}/freeNights/nightsDiscounted: must not exceed nightsRequired (${f.nightsRequired})`);
  return problems;
}
