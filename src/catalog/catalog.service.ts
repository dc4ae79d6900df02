import { addDays, hotelToday } from '../calendar/dates.ts';
import type { Database } from '../infra/db/database.ts';
import { catalogRepository as repo } from './catalog.repository.ts';
import type { Hotel } from './catalog.schema.ts';
import { CatalogError } from './catalog.validate.ts';

/**
 * Loads catalogue hotels into the database by id, in one transaction. Never deletes: a room type
 * dropped from the file stops selling, and a count below rooms already sold refuses the load.
 */
export async function applyCatalog(db: Database, hotels: Hotel[], now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    for (const hotel of hotels) {
      await repo.upsertHotel(tx, hotel);
      await repo.upsertRoomTypes(tx, hotel);
      // Past nights keep the count they were sold under; yesterday is kept for late-night arrivals.
      const fromNight = addDays(hotelToday(hotel.timezone, now), -1);
      const oversold = await repo.oversoldNights(tx, hotel, fromNight);
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
      await repo.syncInventoryTotals(tx, hotel.id, fromNight);
    }
  });
}

/** The catalogue in memory: pricing reads it on every search, so it must not cost a query. */
export class CatalogStore {
  private hotels = new Map<string, Hotel>();
  private fingerprint = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Database) {}

  get(hotelId: string): Hotel | undefined {
    return this.hotels.get(hotelId);
  }

  all(): Hotel[] {
    return [...this.hotels.values()];
  }

  /** Reloads only when another process (or a catalogue load) changed a hotel. */
  async refresh(): Promise<void> {
    const fingerprint = await repo.fingerprint(this.db);
    if (fingerprint === this.fingerprint) return;
    const stored = await repo.loadAll(this.db);
    this.hotels = new Map(stored.map((s) => [s.hotel.id, s.hotel]));
    this.fingerprint = fingerprint;
  }

  startAutoRefresh(intervalMs: number, onError: (error: unknown) => void): void {
    this.timer = setInterval(() => this.refresh().catch(onError), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
