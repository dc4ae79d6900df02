import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { AppContext } from '../../context.ts';
import { addDays, hotelToday } from '../../dates/dates.ts';
import { recordEvent } from '../../events/record-event.ts';
import { replaceHolds } from '../../hotel-calendar/external-holds.ts';
import { hashSecret, randomToken } from '../../infra/crypto/tokens.ts';
import { AppError, invalid } from '../../infra/http/problems.ts';
import { windowLimitExceeded } from '../../infra/http/rate-limit-headers.ts';
import { OutboundAddressError, resolveOutboundTarget } from '../../infra/net/outbound-address.ts';
import { type FeedRow, type ImportRow, icalRepository as repo, type SealedUrl } from './ical.repository.ts';
import { fetchFeed } from './ical-fetch.ts';
import { parseFeed } from './ical-parse.ts';

/** The iCal feeds of docs/api.md §9.1: the export URLs and the imports with their holds. */

type Deps = Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config' | 'encryptor' | 'operatorKeyHasher'>;

/** Imports a room type may have (docs/api.md §9.1): each is fetched every ICAL_POLL_SECONDS. */
export const MAX_IMPORTS_PER_ROOM_TYPE = 10;
/** Manual syncs of one import per window (docs/api.md §9.1), then `429 rate_limited`. */
export const SYNC_QUOTA = 5;
const SYNC_WINDOW_SECONDS = 60;

/** The encryption context of an import's URL: its ciphertext reads back only as this row's. */
const urlContext = (id: string) => `ical_imports.url:${id}`;
/** Sets the URLs' keyed hashes apart from every other use of the deployment's HMAC key. */
const URL_HASH_DOMAIN = 'innkeep/ical-import-url/v1\u0000';

/**
 * A URL as stored (docs/api.md §9.1): encrypted under the data key and the row's id, its keyed hash
 * (the same URL written the same way, host case and default port aside, hashes the same), its host.
 */
function sealUrl(deps: Pick<Deps, 'encryptor' | 'operatorKeyHasher'>, id: string, url: string): SealedUrl {
  const parsed = new URL(url);
  return {
    ciphertext: deps.encryptor.encrypt(parsed.href, urlContext(id)),
    hash: deps.operatorKeyHasher(URL_HASH_DOMAIN + parsed.href),
    host: parsed.host,
  };
}

/** The URL to fetch: decrypted, or in clear for a row of before encryption not yet sealed. */
export function importUrl(deps: Pick<Deps, 'encryptor'>, row: ImportRow): string {
  if (row.urlCiphertext)
    return deps.encryptor.decrypt(row.urlCiphertext, urlContext(row.id)).toString('utf8');
  return row.legacyUrl ?? '';
}

/** Encrypts the URLs of rows stored before encryption (migration 065); answers how many. */
export async function sealLegacyUrls(
  deps: Pick<Deps, 'db' | 'encryptor' | 'operatorKeyHasher'>,
): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await repo.unsealed(deps.db, 100);
    if (rows.length === 0) return sealed;
    await deps.db.transaction(async (tx) => {
      for (const row of rows) await repo.seal(tx, row.id, row.url, sealUrl(deps, row.id, row.url));
    });
    sealed += rows.length;
  }
}

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

/**
 * Feed tokens are `ict_` and 32 base32 characters: the prefix lets the logs mask them as they mask
 * every other secret (infra/logger.ts). Feeds made before the prefix keep their bare token, which
 * still answers: its URL lives in the platforms' settings.
 */
const FEED_TOKEN = /^(?:ict_)?[0-9a-z]{16,64}$/;

/** A new secret feed URL for a room type: the token (160 random bits) is answered once, its hash kept. */
export async function createFeed(deps: Deps, hotel: Hotel, roomTypeId: string) {
  roomTypeOrInvalid(hotel, roomTypeId);
  const token = randomToken('ict_', 20);
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
  if (!FEED_TOKEN.test(token)) return Promise.resolve(null);
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
  const id = randomToken('ici_', 10);
  const sealed = sealUrl(deps, id, body.url);
  const row = await deps.db.transaction(async (tx) => {
    await repo.lockRoomTypeImports(tx, hotel.id, body.roomTypeId);
    const existing = await repo.roomTypeImports(tx, hotel.id, body.roomTypeId, sealed.hash);
    if (existing.sameUrl) {
      throw invalid(
        '/url',
        `this URL is already imported for room type "${body.roomTypeId}" (${existing.sameUrl})`,
      );
    }
    if (existing.count >= MAX_IMPORTS_PER_ROOM_TYPE) {
      throw invalid(
        '/roomTypeId',
        `room type "${body.roomTypeId}" has ${existing.count} imports, the most it may have (delete one first)`,
      );
    }
    return repo.insertImport(tx, {
      id,
      hotelId: hotel.id,
      roomTypeId: body.roomTypeId,
      name: body.name,
      ...sealed,
    });
  });
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

/**
 * `POST /operator/ical-imports/{id}/sync`: fetch now, at most SYNC_QUOTA times a minute per import
 * (the platform's server is a third party's), then `429 rate_limited` with `Retry-After`.
 */
export async function syncImportById(deps: Deps, id: string, hotelIds: readonly string[] | null) {
  const row = visible(await repo.importById(deps.db, id), hotelIds, 'iCal import');
  const counted = await deps.db.transaction((tx) => repo.countSync(tx, id, SYNC_WINDOW_SECONDS));
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
  return syncImport(deps, row);
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
  let parsed: Awaited<ReturnType<typeof parseFeed>>;
  try {
    const text = await fetchFeed(importUrl(deps, row), deps.config.webhookAllowPrivate);
    parsed = await parseFeed(text, { timezone: hotel.timezone, host: uidHost(deps), first: today, last });
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
