import { Temporal } from 'temporal-polyfill';

/**
 * Calendar-date maths on hotel-local `YYYY-MM-DD` strings.
 *
 * Plain date arithmetic runs on UTC midnights, where every day is exactly 24 hours long, so the
 * machine's time zone and daylight-saving changes can never shift a date. Anything that turns a
 * hotel-local wall time into an instant goes through Temporal with the hotel's IANA zone.
 */

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * Pricing and restrictions turn the same few dates back and forth thousands of times per search
 * (every night of every room type and rate plan); these pure conversions are remembered. Each
 * memo is dropped whole when full, so memory stays bounded whatever the inputs.
 */
const MEMO_LIMIT = 10_000;
function remember<K, V>(memo: Map<K, V>, key: K, value: V): V {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}
const midnights = new Map<string, number>();
const dateStrings = new Map<number, string>();
const zonedInstants = new Map<string, number>();
const hotelDates = new Map<string, string>();
const stays = new Map<string, readonly string[]>();

function utcMidnight(date: string): number {
  const known = midnights.get(date);
  if (known !== undefined) return known;
  if (!isCalendarDate(date)) throw new RangeError(`Not a calendar date: ${date}`);
  return remember(midnights, date, Date.parse(`${date}T00:00:00Z`));
}

function fromUtcMidnight(ms: number): string {
  return dateStrings.get(ms) ?? remember(dateStrings, ms, new Date(ms).toISOString().slice(0, 10));
}

/** True only for a real `YYYY-MM-DD` calendar date (rejects 2027-02-30, 2027-13-01, 2027-2-3). */
export function isCalendarDate(s: string): boolean {
  const match = DATE_PATTERN.exec(s);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The calendar date `n` days after `date` (before it when `n` is negative). */
export function addDays(date: string, n: number): string {
  return fromUtcMidnight(utcMidnight(date) + n * DAY_MS);
}

/** Nights from check-in to check-out; negative when check-out comes first. */
export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((utcMidnight(checkOut) - utcMidnight(checkIn)) / DAY_MS);
}

/** The day of the week of a date: 0 for Monday … 6 for Sunday (ISO order). */
export function weekdayIndex(date: string): number {
  return (new Date(utcMidnight(date)).getUTCDay() + 6) % 7;
}

let lastStay: { checkIn: string; checkOut: string; dates: readonly string[] } | undefined;

/** The dates of the nights of a stay: check-in up to the day before check-out. */
export function eachNight(checkIn: string, checkOut: string): readonly string[] {
  // One search asks for its stay's nights dozens of times (each room type, plan and rule): the
  // last stay answers those without building and hashing a key (a profile had the memo's lookup
  // at 3 % of a search).
  if (lastStay && checkIn === lastStay.checkIn && checkOut === lastStay.checkOut) return lastStay.dates;
  const key = `${checkIn} ${checkOut}`;
  let dates = stays.get(key);
  if (!dates) {
    const nights = nightsBetween(checkIn, checkOut);
    const list: string[] = [];
    for (let i = 0; i < nights; i++) list.push(addDays(checkIn, i));
    // Shared by every caller asking for the same stay: frozen, so none can change it for the others.
    dates = remember(stays, key, Object.freeze(list));
  }
  lastStay = { checkIn, checkOut, dates };
  return dates;
}

/** The hotel's calendar date at instant `now`; "today" for the booking window and past-date checks. */
export function hotelToday(timezone: string, now: Date): string {
  // Zone offsets are whole minutes, so the date is the same for every instant of one UTC minute.
  const key = `${timezone} ${Math.floor(now.getTime() / 60_000)}`;
  return (
    hotelDates.get(key) ??
    remember(
      hotelDates,
      key,
      Temporal.Instant.fromEpochMilliseconds(now.getTime())
        .toZonedDateTimeISO(timezone)
        .toPlainDate()
        .toString(),
    )
  );
}

/**
 * The instant at which the hotel's wall clock shows `time` on `date`. A wall time skipped by a
 * daylight-saving jump resolves the 'compatible' way (moved forward by the gap, as a clock would),
 * and a repeated one to its earlier occurrence.
 */
export function zonedInstant(date: string, time: string, timezone: string): Date {
  const key = `${date} ${time} ${timezone}`;
  const known = zonedInstants.get(key);
  if (known !== undefined) return new Date(known);
  const match = TIME_PATTERN.exec(time);
  if (!match || !isCalendarDate(date)) throw new RangeError(`Not a local date and time: ${date} ${time}`);
  const wallTime = Temporal.PlainDate.from(date).toPlainDateTime({
    hour: Number(match[1]),
    minute: Number(match[2]),
  });
  const zoned = wallTime.toZonedDateTime(timezone, { disambiguation: 'compatible' });
  return new Date(remember(zonedInstants, key, zoned.epochMilliseconds));
}

/** RFC 3339 UTC at whole seconds (`2027-03-01T14:00:00Z`), the contract's format for instants. */
export function toRfc3339(d: Date): string {
  const iso = d.toISOString();
  // `YYYY-MM-DDTHH:MM:SS.sssZ` (years 0–9999): drop the milliseconds.
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}
