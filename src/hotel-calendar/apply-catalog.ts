import { catalogRepository } from '../catalog/catalog.repository.ts';
import type { Hotel } from '../catalog/catalog.schema.ts';
import { CatalogError } from '../catalog/catalog.validate.ts';
import { addDays, hotelToday } from '../dates/dates.ts';
import type { Database } from '../infra/db/database.ts';
import { holdCalendar } from './calendar-lock.ts';
import { inventoryRepository } from './inventory.repository.ts';

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
export async function applyCatalog(db: Database, hotels: Hotel[], now: Date): Promise<void> {
  const ordered = [...hotels].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await db.transaction(async (tx) => {
    for (const hotel of ordered) await holdCalendar(tx, hotel.id, 'exclusive');
    for (const hotel of ordered) {
      await catalogRepository.upsertHotel(tx, hotel);
      await catalogRepository.upsertRoomTypes(tx, hotel);
      // Past nights keep the count they were sold under; yesterday is kept for late-night arrivals.
      const fromNight = addDays(hotelToday(hotel.timezone, now), -1);
      const oversold = await inventoryRepository.belowCatalogCount(tx, hotel.id, fromNight);
      if (oversold.length > 0) {
        throw new CatalogError(
          oversold
            .map(
              (o) =>
                `hotels/${hotel.id}/roomTypes/${o.room_type_id}/count: ${o.count} is below the ${o.sold} rooms already sold on ${o.night}`,
            )
            .join('\n'),
        );
      }
      // Search's in-memory nights (night-store.ts) are read again when the hotel's definition
      // changes, which a change of count is: every process sees it by its next catalogue refresh.
      await inventoryRepository.followCatalog(tx, hotel.id, fromNight);
    }
  });
}
