import { createHash } from 'node:crypto';
import ical from 'ical-generator';
import type { Hotel } from '../../catalog/catalog.schema.ts';
import { addDays, hotelToday } from '../../dates/dates.ts';
import type { HotelNights } from '../../hotel-calendar/hotel-nights.ts';
import { loadHotelNights } from '../../hotel-calendar/load-hotel-nights.ts';
import type { Executor } from '../../infra/db/database.ts';
import type { FeedRow } from './ical-feeds.repository.ts';

/** The booking window assumed for a hotel without one (as search's night store does). */
const DEFAULT_WINDOW = 365;

/** A run of consecutive unsellable nights [from, to): to is the morning after the last. */
export interface Run {
  from: string;
  to: string;
}

/**
 * Runs of consecutive nights from `today` to the end of the booking window on which the room type
 * has no room left: sold out (external holds included), `rooms` 0, or closed by stop-sell.
 */
export function unsellableRuns(nights: HotelNights, roomTypeId: string, today: string, last: string): Run[] {
  const runs: Run[] = [];
  let start: string | null = null;
  for (let night = today; night <= last; night = addDays(night, 1)) {
    const closed =
      nights.leftOn(roomTypeId, night) <= 0 ||
      nights.restrictionsOn(roomTypeId, null, night).stopSell !== null;
    if (closed && start === null) start = night;
    if (!closed && start !== null) {
      runs.push({ from: start, to: night });
      start = null;
    }
  }
  if (start !== null) runs.push({ from: start, to: addDays(last, 1) });
  return runs;
}

/**
 * Our own events' UIDs: `innkeep-<first night>-<feed id>@<host of PUBLIC_BASE_URL>`. A run keeps its
 * UID while its first night stays (a run growing or shrinking at its end is the same event, moved).
 * The import side ignores every UID of this form for this host, deleted feeds' included, so feeds
 * exchanged both ways never echo.
 */
export function runUid(feedId: string, run: Run, host: string): string {
  return `innkeep-${run.from}-${feedId}@${host}`;
}

/** Is this UID one of this deployment's own feeds' (see runUid)? */
export function isOwnUid(uid: string, host: string): boolean {
  return uid.startsWith('innkeep-') && uid.endsWith(`@${host}`) && uid.includes('-icf_');
}

/**
 * The calendar's name (NAME, X-WR-CALNAME): the hotel's and the room type's. ical-generator writes
 * it as given, so a line break in a name would end the property and start another (a `BEGIN:VEVENT`
 * of someone else's making): every control character becomes a space. The catalogue refuses such
 * names too; this holds for whatever reaches the feed.
 */
export function calendarName(hotelName: string, roomTypeName: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  return `${hotelName} – ${roomTypeName}`.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

export interface FeedDocument {
  body: string;
  etag: string;
}

const utcDate = (night: string) => new Date(`${night}T00:00:00Z`);

/** The RFC 5545 calendar of a feed (docs/api.md §9.1), and its strong ETag (a hash of the body). */
export async function feedDocument(
  db: Executor,
  hotel: Hotel,
  feed: FeedRow,
  now: Date,
  host: string,
): Promise<FeedDocument> {
  const today = hotelToday(hotel.timezone, now);
  const last = addDays(today, hotel.maxDaysBeforeArrival ?? DEFAULT_WINDOW);
  const nights = await loadHotelNights(db, hotel, today, last, [feed.roomTypeId]);
  const roomType = hotel.roomTypes.find((r) => r.id === feed.roomTypeId);
  const calendar = ical({
    name: calendarName(hotel.name, roomType?.name ?? feed.roomTypeId),
    prodId: { company: 'Innkeep', product: 'Innkeep', language: 'EN' },
  });
  for (const run of unsellableRuns(nights, feed.roomTypeId, today, last)) {
    calendar.createEvent({
      id: runUid(feed.id, run, host),
      start: utcDate(run.from),
      end: utcDate(run.to),
      allDay: true,
      summary: 'Not available',
      // The feed's creation: a fixed stamp keeps the body, and so its ETag, the same while the runs are.
      stamp: feed.createdAt,
    });
  }
  const body = calendar.toString();
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, etag };
}
