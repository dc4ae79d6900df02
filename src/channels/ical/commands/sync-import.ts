import { addDays, hotelToday } from '../../../dates/dates.ts';
import { recordEvent } from '../../../events/record-event.ts';
import { replaceHolds } from '../../../hotel-calendar/external-holds.ts';
import { windowLimitExceeded } from '../../../infra/http/rate-limit-headers.ts';
import { recordAudit } from '../../../operator-access/audit-trail.ts';
import { fetchFeed } from '../ical-fetch.ts';
import { type ImportRow, icalImportsRepository as repo } from '../ical-imports.repository.ts';
import { parseFeed } from '../ical-parse.ts';
import { type IcalContext, uidHost, visible } from './ical-context.ts';
import { importUrl } from './import-url.ts';

/** Manual syncs of one import per window (docs/api.md §9.1), then `429 rate_limited`. */
export const SYNC_QUOTA = 5;
const SYNC_WINDOW_SECONDS = 60;

/** Stays beyond the booking window are not held (nothing sells there); this much margin is kept. */
const WINDOW_MARGIN = 31;
const DEFAULT_WINDOW = 365;

/**
 * `POST /operator/ical-imports/{id}/sync`: fetch now, at most SYNC_QUOTA times a minute per import
 * (the platform's server is a third party's), then `429 rate_limited` with `Retry-After`.
 */
export async function syncImportById(ctx: IcalContext, id: string, hotelIds: readonly string[] | null) {
  const row = visible(await repo.importById(ctx.db, id), hotelIds, 'iCal import');
  const counted = await ctx.db.transaction((tx) => repo.countSync(tx, id, SYNC_WINDOW_SECONDS));
  if (counted) {
    const refused = windowLimitExceeded(
      'ical-sync',
      SYNC_QUOTA,
      SYNC_WINDOW_SECONDS,
      { failures: counted.count, windowStart: counted.windowStart },
      counted.now,
      (seconds) => `At most ${SYNC_QUOTA} syncs of an import a minute; the next in ${seconds} s.`,
    );
    if (refused) throw refused;
  }
  return syncImport(ctx, row);
}

/**
 * One fetch of an import: the feed's events replace the import's holds in one transaction (the
 * calendar lock shared, the inventory rows locked in their order), with a `channel.conflict`
 * event for nights whose overbooking grew. A failed fetch or an unreadable feed changes no hold
 * (the last good fetch's stay) and is recorded as the import's last fetch.
 */
export async function syncImport(ctx: IcalContext, row: ImportRow): Promise<ImportRow> {
  const hotel = ctx.catalog.get(row.hotelId);
  const next = ctx.config.icalPollSeconds;
  const failed = async (error: string) =>
    (await repo.recordFetch(
      ctx.db,
      row.id,
      { status: 'failed', error, events: null, conflicts: null },
      next,
    )) ?? row;
  if (!hotel?.roomTypes.some((r) => r.id === row.roomTypeId)) {
    return failed('the hotel or room type is no longer in the catalogue');
  }
  const today = hotelToday(hotel.timezone, ctx.clock.now());
  const last = addDays(today, (hotel.maxDaysBeforeArrival ?? DEFAULT_WINDOW) + WINDOW_MARGIN);
  let parsed: Awaited<ReturnType<typeof parseFeed>>;
  try {
    const text = await fetchFeed(importUrl(ctx, row), ctx.config.webhookAllowPrivate);
    parsed = await parseFeed(text, { timezone: hotel.timezone, host: uidHost(ctx), first: today, last });
  } catch (error) {
    return failed(String((error as Error).message ?? error).slice(0, 500));
  }
  const updated = await ctx.db.transaction(async (tx) => {
    const current = await repo.importById(tx, row.id, row.hotelId);
    if (!current) return null; // deleted meanwhile: its holds went with it
    const target = { hotelId: row.hotelId, roomTypeId: row.roomTypeId, importId: row.id };
    const { conflicts, added, removed } = await replaceHolds(tx, target, parsed.stays, today);
    // A poll that changed holds is a change to what the hotel sells (API.md 12): the poller's
    // runs are the system's, a manual sync its caller's (the request's audit scope). No change, no entry.
    if (added > 0 || removed > 0) {
      await recordAudit(tx, ctx.audit, {
        hotelIds: [row.hotelId],
        action: 'ical_import.synced',
        target: { type: 'ical_import', id: row.id },
        details: { roomTypeId: row.roomTypeId, added, removed, events: parsed.stays.length },
      });
    }
    const grown = conflicts.filter((c) => c.grew);
    if (grown.length > 0) {
      await recordEvent(tx, {
        type: 'channel.conflict',
        hotelId: row.hotelId,
        data: {
          importId: row.id,
          name: row.name,
          roomTypeId: row.roomTypeId,
          nights: grown.map((c) => ({ date: c.night, conflicts: c.conflicts })),
        },
      });
    }
    return repo.recordFetch(
      tx,
      row.id,
      { status: 'ok', error: null, events: parsed.stays.length, conflicts: conflicts.length },
      next,
    );
  });
  return updated ?? row;
}
