import type { CatalogNights } from '../catalog/apply-catalog.ts';
import { CatalogError } from '../catalog/catalog.validate.ts';
import { addDays, hotelToday } from '../dates/dates.ts';
import { holdCalendar } from './calendar-lock.ts';
import { inventoryRepository } from './inventory.repository.ts';

/**
 * The nights' side of `applyCatalog` (catalog/apply-catalog.ts): the calendar lock held exclusively,
 * as a calendar PATCH holds it, and each night's total set to the catalogue count unless the
 * calendar overrides it; a count below rooms already sold refuses the whole load.
 */
export const nightsFollowCatalog: CatalogNights = {
  lock: (tx, hotelId) => holdCalendar(tx, hotelId, 'exclusive'),
  async follow(tx, hotel, now) {
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
  },
};
