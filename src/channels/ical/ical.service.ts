import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { AppContext } from '../../context.ts';
import { addDays, hotelToday } from '../../dates/dates.ts';
import { recordEvent } from '../../events/record-event.ts';
import { replaceHolds } from '../../hotel-calendar/external-holds.ts';
import { hashSecret, randomToken } from '../../infra/crypto/tokens.ts';
import { AppError, invalid } from '../../infra/http/problems.ts';
import { OutboundAddressError, resolveOutboundTarget } from '../../infra/net/outbound-address.ts';
import { type FeedRow, type ImportRow, icalRepository as repo } from './ical.repository.ts';
import { fetchFeed } from './ical-fetch.ts';
import { parseFeed } from './ical-parse.ts';

/** The iCal feeds of docs/api.md §9.1: the export URLs and the imports with their holds. */

type Deps = Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config'>;

/** Stays beyond the booking window are not held (nothing sells there); this much margin is kept. */
const WINDOW_MARGIN = 31;
const DEFAULT_WINDOW = 365;

/** The host our own events' UIDs name (ical-export.ts): PUBLIC_BASE_URL's. */
export const uidHost = (deps: Pick<Deps, 'config'>) => new URL(deps.config.publicBaseUrl).host;

function roomTypeOrInvalid(hotel: Hotel, roomTypeId: string): void {
  if (!hotel.roomTypes.some((r) => r.id === roomTypeId)) {
    throw invalid('/roomTypeId', `no room type "${roomTypeId}" in ${hotel.id}`);
  }
}

/** A new secret feed URL for a room type: the token (160 random bits) is answered once, its hash kept. */
export async function createFeed(deps: Deps, hotel: Hotel, roomTypeId: string) {
  roomTypeOrInvalid(hotel, roomTypeId);
  const token = randomToken('', 20);
  const row = await deps.db.transaction((tx) =>
    repo.insertFeed(tx, {
      id: randomToken('icf_', 10),
      hotelId: hotel.id,
      roomTypeId,
      tokenHash: hashSecret(token),
    }),
  );
  return { feed: row, url: `${deps.config.publicBaseUrl}/api/v1/ical/${token}.ics` };
}

/** The feed of a URL's token, or null (unknown or deleted). */
export function feedOfToken(deps: Pick<Deps, 'db'>, token: string): Promise<FeedRow | null> {
  if (!/^[0-9a-z]{16,64}$/.test(token)) return Promise.resolve(null);
  return repo.feedByTokenHash(deps.db, hashSecret(token));
}

/** The row, when the key sees its hotel; `404` otherwise, as if it did not exist. */
function visible<T extends { hotelId: string }>(
  row: T | null,
  hotelIds: readonly string[] | null,
  what: string,
): T {
  if (!row || (hotelIds !== null && !hotelIds.includes(row.hotelId))) {
    throw new AppError('not_found', `No ${what} has this id.`);
  }
  return row;
}

export async function deleteFeed(deps: Deps, id: string, hotelIds: readonly string[] | null): Promise<void> {
  visible(await repo.feedById(deps.db, id), hotelIds, 'iCal feed');
  await deps.db.transaction((tx) => repo.deleteFeed(tx, id));
}

/** The result of one fetch of an import (also kept on the import as its last fetch). */
export interface SyncResult {
  import: ImportRow;
}

/** Creates an import (its URL checked as a webhook's is) and fetches it once at once. */
export async function createImport(
  deps: Deps,
  hotel: Hotel,
  body: { roomTypeId: string; url: string; name: string },
): Promise<ImportRow> {
  roomTypeOrInvalid(hotel, body.roomTypeId);
  try {
    await resolveOutboundTarget(body.url, { allowPrivate: deps.config.webhookAllowPrivate });
  } catch (error) {
    if (error instanceof OutboundAddressError) throw invalid('/url', error.message);
    throw error;
  }
  const row = await deps.db.transaction((tx) =>
    repo.insertImport(tx, { id: randomToken('ici_', 10), hotelId: hotel.id, ...body }),
  );
  return syncImport(deps, row);
}

/** Releases every hold of the import, then deletes it. */
export async function deleteImport(
  deps: Deps,
  id: string,
  hotelIds: readonly string[] | null,
): Promise<void> {
  const row = visible(await repo.importById(deps.db, id), hotelIds, 'iCal import');
  const hotel = deps.catalog.get(row.hotelId);
  await deps.db.transaction(async (tx) => {
    if (!(await repo.importById(tx, id, true))) return;
    if (hotel) {
      const today = hotelToday(hotel.timezone, deps.clock.now());
      await replaceHolds(tx, { hotelId: row.hotelId, roomTypeId: row.roomTypeId, importId: id }, [], today);
    }
    await repo.deleteImport(tx, id);
  });
}

/** `POST /operator/ical-imports/{id}/sync`: fetch now. */
export async function syncImportById(deps: Deps, id: string, hotelIds: readonly string[] | null) {
  return syncImport(deps, visible(await repo.importById(deps.db, id), hotelIds, 'iCal import'));
}

/**
 * One fetch of an import: the feed's events replace the import's holds in one transaction (the
 * calendar lock shared, the inventory rows locked in their order), with a `channel.conflict`
 * event for nights whose overbooking grew. A failed fetch or an unreadable feed changes no hold
 * (the last good fetch's stay) and is recorded as the import's last fetch.
 */
export async function syncImport(deps: Deps, row: ImportRow): Promise<ImportRow> {
  const hotel = deps.catalog.get(row.hotelId);
  const next = deps.config.icalPollSeconds;
  const failed = async (error: string) =>
    (await repo.recordFetch(
      deps.db,
      row.id,
      { status: 'failed', error, events: null, conflicts: null },
      next,
    )) ?? row;
  if (!hotel?.roomTypes.some((r) => r.id === row.roomTypeId)) {
    return failed('the hotel or room type is no longer in the catalogue');
  }
  const today = hotelToday(hotel.timezone, deps.clock.now());
  const last = addDays(today, (hotel.maxDaysBeforeArrival ?? DEFAULT_WINDOW) + WINDOW_MARGIN);
  let parsed: ReturnType<typeof parseFeed>;
  try {
    const text = await fetchFeed(row.url, deps.config.webhookAllowPrivate);
    parsed = parseFeed(text, { timezone: hotel.timezone, host: uidHost(deps), first: today, last });
  } catch (error) {
    return failed(String((error as Error).message ?? error).slice(0, 500));
  }
  const updated = await deps.db.transaction(async (tx) => {
    const current = await repo.importById(tx, row.id, true);
    if (!current) return null; // deleted meanwhile: its holds went with it
    const target = { hotelId: row.hotelId, roomTypeId: row.roomTypeId, importId: row.id };
    const { conflicts } = await replaceHolds(tx, target, parsed.stays, today);
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

export { repo as icalRepository };
