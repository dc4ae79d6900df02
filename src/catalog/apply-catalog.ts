import type { Database, Transaction } from '../infra/db/database.ts';
import { catalogRepository } from './catalog.repository.ts';
import type { Hotel } from './catalog.schema.ts';

/**
 * The nights' side of loading the catalogue, handed down by their owner (`nightsFollowCatalog` of
 * `hotel-calendar/catalog-nights.ts`, wired by the runtime): each hotel's calendar lock, and each
 * hotel's nights brought in step with the rows just written, in the same transaction.
 */
export interface CatalogNights {
  /** Taken for every hotel first, in hotel id order, before any row is written. */
  lock(tx: Transaction, hotelId: string): Promise<void>;
  /** After the hotel's rows are written: its nights follow them, or a `CatalogError` refuses the load. */
  follow(tx: Transaction, hotel: Hotel, now: Date): Promise<void>;
}

/**
 * Loads catalogue hotels into the database by id, in one transaction. Never deletes: a room type
 * dropped from the file stops selling, and a count below rooms already sold refuses the load.
 *
 * Each hotel's calendar lock is held exclusively from the start, as a calendar PATCH holds it:
 * another process may be serving the operator while this one starts. Without it, a PATCH setting
 * a night's rooms could commit while the totals are being rewritten here, and the rewrite (whose
 * statement began before that commit, so does not see the new override) would set the night back
 * to the catalogue count: rooms the operator had just taken off sale, sold again. Locks are taken
 * in hotel id order, the one order two starting processes share.
 */
export async function applyCatalog(
  db: Database,
  hotels: Hotel[],
  now: Date,
  nights: CatalogNights,
): Promise<void> {
  const ordered = [...hotels].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await db.transaction(async (tx) => {
    for (const hotel of ordered) await nights.lock(tx, hotel.id);
    for (const hotel of ordered) {
      await catalogRepository.upsertHotel(tx, hotel);
      await catalogRepository.upsertRoomTypes(tx, hotel);
      await nights.follow(tx, hotel, now);
    }
  });
}
