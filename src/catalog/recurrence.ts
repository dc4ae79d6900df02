import type { Hotel, RestrictionDef, SeasonDef } from './catalog.schema.ts';

/**
 * Yearly periods (API.md section 6): a season or restriction whose `from` and `to` are ISO 8601
 * recurring month-days (`--07-01` to `--08-31`) applies every year; `to` before `from` wraps the
 * year end (`--12-20` to `--01-05`). The per-night rules only know dated periods, so a hotel's
 * yearly periods are expanded here into dated ones over a window of years wide enough for every
 * bookable night (`expansionYears`), each at the position of its yearly period so catalogue order
 * (last season wins, first restriction decides) is unchanged.
 *
 * 29 February is a valid month-day and only exists in leap years: a period covers the days between
 * its ends that exist in that year, so `--02-29` as `from` starts on 1 March in other years, as `to`
 * ends on 28 February, and a period of that one day applies in leap years only.
 */

const MONTH_DAY = /^--(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Without `maxDaysBeforeArrival` an arrival may be any day ahead: the window reaches as far as the largest limit allowed. */
export const UNLIMITED_BOOKING_DAYS = 3650;

/** True for an ISO 8601 recurring month-day `--MM-DD` that exists in some year (`--02-29` included). */
export function isMonthDay(s: string): boolean {
  const match = MONTH_DAY.exec(s);
  if (!match) return false;
  const month = Number(match[1]);
  const day = Number(match[2]);
  return month >= 1 && month <= 12 && day >= 1 && day <= (DAYS_IN_MONTH[month - 1] as number);
}

/** A yearly period: both ends are month-days (validation refuses a period mixing the two forms). */
export function isYearly(period: { from: string; to: string }): boolean {
  return isMonthDay(period.from) && isMonthDay(period.to);
}

/** A yearly period whose `to` comes before its `from` in the year: it runs into the next year. */
export function wrapsYearEnd(period: { from: string; to: string }): boolean {
  return period.to < period.from;
}

/**
 * The years whose nights the expansion covers, for a hotel whose today is `today`: from last year
 * (stays in progress, late arrivals, changes to them) to this year + ceil(maxDaysBeforeArrival / 365)
 * + 1, which holds the last night of the farthest stay (arrival at the booking limit plus up to 365
 * nights) with up to a year to spare.
 */
export function expansionYears(today: string, maxDaysBeforeArrival: number | null): [number, number] {
  const year = Number(today.slice(0, 4));
  const ahead = Math.ceil((maxDaysBeforeArrival ?? UNLIMITED_BOOKING_DAYS) / 365);
  return [year - 1, year + ahead + 1];
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function dateIn(year: number, monthDay: string): string {
  return `${String(year).padStart(4, '0')}${monthDay.slice(1)}`;
}

/**
 * The dated occurrences of a yearly period that touch a night of the years `first`..`last`, in
 * order. An occurrence is never cut at the window's edges: a wrapping period's occurrence that
 * starts in December before `first` is included whole, and the one starting in `last` ends in the
 * year after, so the dates a restriction reports are always its real ones.
 */
export function occurrences(
  period: { from: string; to: string },
  [first, last]: [number, number],
): Array<{ from: string; to: string }> {
  const wraps = wrapsYearEnd(period);
  const result: Array<{ from: string; to: string }> = [];
  for (let year = wraps ? first - 1 : first; year <= last; year++) {
    const endYear = wraps ? year + 1 : year;
    const from =
      period.from === '--02-29' && !isLeapYear(year) ? dateIn(year, '--03-01') : dateIn(year, period.from);
    const to =
      period.to === '--02-29' && !isLeapYear(endYear)
        ? dateIn(endYear, '--02-28')
        : dateIn(endYear, period.to);
    if (from <= to) result.push({ from, to });
  }
  return result;
}

/**
 * The hotel as the per-night rules see it on `today` (hotel-local): every yearly season and
 * restriction replaced, in place, by its dated occurrences over `expansionYears`. A hotel without
 * yearly periods is returned as it is.
 */
export function expandYearlyPeriods(hotel: Hotel, today: string): Hotel {
  const hasYearly =
    hotel.restrictions.some(isYearly) || hotel.ratePlans.some((plan) => plan.seasons.some(isYearly));
  if (!hasYearly) return hotel;
  const years = expansionYears(today, hotel.maxDaysBeforeArrival);
  const expand = <T extends SeasonDef | RestrictionDef>(period: T): T[] =>
    isYearly(period) ? occurrences(period, years).map((dates) => ({ ...period, ...dates })) : [period];
  return {
    ...hotel,
    ratePlans: hotel.ratePlans.map((plan) => ({ ...plan, seasons: plan.seasons.flatMap(expand) })),
    restrictions: hotel.restrictions.flatMap(expand),
  };
}
