import { createHash } from 'node:crypto';
import ical, { type DateWithTimeZone, type VEvent } from 'node-ical';
import { Temporal } from 'temporal-polyfill';
import { addDays } from '../../dates/dates.ts';
import type { HeldStay } from '../../hotel-calendar/external-holds.ts';
import { isOwnUid } from './ical-export.ts';

/** The wall date and hour of an instant in the hotel's time zone. */
function hotelWall(instant: Date, timezone: string): { date: string; minutes: number } {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timezone);
  return { date: zoned.toPlainDate().toString(), minutes: zoned.hour * 60 + zoned.minute };
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * node-ical gives date-only and floating values as the process's local midnight / wall time: read
 * them back with the local getters, so they are taken as written (the hotel's dates and hours).
 */
function wall(value: DateWithTimeZone, timezone: string): { date: string; minutes: number } {
  const floating = !value.tz && !(value as { dateOnly?: boolean }).dateOnly;
  if ((value as { dateOnly?: boolean }).dateOnly || floating) {
    return {
      date: `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`,
      minutes: value.getHours() * 60 + value.getMinutes(),
    };
  }
  return hotelWall(value, timezone);
}

const NOON = 12 * 60;

/**
 * The nights [checkIn, checkOut) an event holds (docs/api.md §9.1). All-day: DTSTART to DTEND
 * (exclusive; one night without DTEND). Timed (in the hotel's time zone): every night it touches,
 * from the night of its start date to the night before its end date, plus that last date's night
 * when it ends after noon: a stay from 15:00 to 11:00 holds the nights between, and a feed that
 * writes dates as midnight instants (common) holds the same nights as the dates.
 */
export function eventNights(
  start: DateWithTimeZone,
  end: DateWithTimeZone | undefined,
  timezone: string,
): { checkIn: string; checkOut: string } {
  const from = wall(start, timezone);
  const dateOnly = (start as { dateOnly?: boolean }).dateOnly === true;
  if (!end) return { checkIn: from.date, checkOut: addDays(from.date, 1) };
  const to = wall(end, timezone);
  let checkOut = dateOnly || to.minutes <= NOON ? to.date : addDays(to.date, 1);
  if (checkOut <= from.date) checkOut = addDays(from.date, 1);
  return { checkIn: from.date, checkOut };
}

export interface ParsedFeed {
  stays: HeldStay[];
  /** Events left out: Innkeep's own (echo), cancelled, free (TRANSP:TRANSPARENT), without dates. */
  ignored: number;
}

/** Events a feed may have (docs/api.md §9.1): a feed with more fails its fetch, its holds untouched. */
export const MAX_FEED_EVENTS = 10_000;
/** Events read between two turns of the event loop. */
const EVENTS_PER_TURN = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The `VEVENT`s a document opens, counted on its lines before anything is parsed. */
export function countEvents(text: string): number {
  return text.match(/^BEGIN:VEVENT[ \t]*\r?$/gim)?.length ?? 0;
}

/**
 * The stays of an external feed, clipped to the nights [first, last]: one per VEVENT (by UID), as
 * tolerant as node-ical (folded lines, time zones by name or VTIMEZONE, Windows zone names, CRLF
 * or LF). Rejects a text that is not an iCalendar document at all, and one of more than
 * MAX_FEED_EVENTS events before parsing it. The parse yields to the event loop as it goes (node-ical
 * in batches of lines, then the events in slices), so a large feed never holds up other requests.
 */
export async function parseFeed(
  text: string,
  options: { timezone: string; host: string; first: string; last: string },
): Promise<ParsedFeed> {
  if (!/BEGIN:VCALENDAR/i.test(text))
    throw new Error('the document is not an iCalendar file (no BEGIN:VCALENDAR)');
  const count = countEvents(text);
  if (count > MAX_FEED_EVENTS) {
    throw new Error(
      `too many events: ${count} (at most ${MAX_FEED_EVENTS}); the last good fetch's holds are kept`,
    );
  }
  const components = await ical.async.parseICS(text);
  const stays: HeldStay[] = [];
  const seen = new Map<string, number>();
  let ignored = 0;
  let read = 0;
  for (const component of Object.values(components)) {
    if (component?.type !== 'VEVENT') continue;
    if (++read % EVENTS_PER_TURN === 0) await nextTurn();
    const event = component as VEvent;
    const status = String(event.status ?? '').toUpperCase();
    const transparent = String(event.transparency ?? '').toUpperCase() === 'TRANSPARENT';
    const uid = typeof event.uid === 'string' && event.uid ? event.uid : null;
    if (!event.start || status === 'CANCELLED' || transparent || (uid && isOwnUid(uid, options.host))) {
      ignored++;
      continue;
    }
    const nights = eventNights(event.start, event.end, options.timezone);
    const checkIn = nights.checkIn < options.first ? options.first : nights.checkIn;
    const lastOut = addDays(options.last, 1);
    const checkOut = nights.checkOut > lastOut ? lastOut : nights.checkOut;
    if (checkOut <= checkIn) continue; // all in the past, or beyond the window
    const summary = typeof event.summary === 'string' ? event.summary.slice(0, 200) : null;
    // A feed without UIDs (rare) still gets a stable key per event: its dates and summary.
    let key =
      uid ??
      `nouid-${createHash('sha256').update(`${nights.checkIn}/${nights.checkOut}/${summary}`).digest('hex')}`;
    const count = seen.get(key) ?? 0;
    seen.set(key, count + 1);
    if (count > 0) key = `${key}#${count}`;
    stays.push({ uid: key.slice(0, 500), checkIn, checkOut, summary });
  }
  return { stays, ignored };
}
