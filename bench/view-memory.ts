/**
 * The in-memory view's size (src/hotel-calendar/night-store.ts) for `BENCH_VIEW_HOTELS` hotels ×
 * `BENCH_VIEW_TYPES` room types × a 500-night window (booking window 467 days + yesterday + 32
 * nights of stay margin), every night's price and restrictions of every room type and rate plan
 * worked out (the worst case: a long soak of searches over the whole window). Run alone with
 * `node --expose-gc --import tsx bench/view-memory.ts`; `npm run bench` runs it as the `view` section.
 */

import { applyCatalog } from '../src/catalog/apply-catalog.ts';
import { parseCatalog } from '../src/catalog/catalog.validate.ts';
import { CatalogStore } from '../src/catalog/catalog-store.ts';
import { addDays, hotelToday } from '../src/dates/dates.ts';
import { nightsFollowCatalog } from '../src/hotel-calendar/catalog-nights.ts';
import { NightStore } from '../src/hotel-calendar/night-store.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { openEmbeddedDatabase } from '../src/infra/db/pglite.ts';
import { benchHotel } from './catalog.ts';

export interface ViewMemory {
  hotels: number;
  roomTypes: number;
  nights: number;
  arrayBytes: number;
  /** V8 heap and array buffers (where typed arrays keep their data) grown by the view. */
  heapBytes: number;
  loadSeconds: number;
}

/**
 * Collects garbage until the figure settles: array buffers (PGlite's query results among them) are
 * freed by finalisers after a collection, so one `gc()` can leave a start-up's buffers counted in
 * "before" and gone by "after", which once reported a view of negative size.
 */
async function settle(): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) return;
  for (let i = 0; i < 4; i++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export async function measureViewMemory(hotels = 50, types = 50): Promise<ViewMemory> {
  const db = await openEmbeddedDatabase(null);
  try {
    await migrate(db);
    const defs = Array.from({ length: hotels }, (_, h) => ({
      ...benchHotel(types),
      id: `view-hotel-${h}`,
      maxDaysBeforeArrival: 467,
    }));
    await applyCatalog(db, parseCatalog({ hotels: defs }).hotels, new Date(), nightsFollowCatalog);
    const catalog = new CatalogStore(db);
    await catalog.refresh();
    const store = NightStore.of(db);
    await settle();
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const before = used();
    const started = performance.now();
    let nights = 0;
    for (const hotel of catalog.all()) {
      const today = hotelToday(hotel.timezone, new Date());
      const view = await store.nights(hotel, today, addDays(today, 1), addDays(today, 2));
      if (!view) throw new Error('the view did not load');
      // Every night of the window, every room type under every plan (and under none).
      const first = addDays(today, -1);
      nights = 500;
      for (let n = 0; n < nights; n++) {
        const night = addDays(first, n);
        for (const roomType of hotel.roomTypes) {
          view.restrictionsOn(roomType.id, null, night);
          for (const plan of hotel.ratePlans) {
            view.priceOn(roomType.id, plan.id, night);
            view.restrictionsOn(roomType.id, plan.id, night);
          }
        }
      }
    }
    const loadSeconds = (performance.now() - started) / 1000;
    await settle();
    const heapBytes = used() - before;
    return { hotels, roomTypes: types, nights, arrayBytes: store.bytes(), heapBytes, loadSeconds };
  } finally {
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureViewMemory(
    Number(process.env.BENCH_VIEW_HOTELS ?? 50),
    Number(process.env.BENCH_VIEW_TYPES ?? 50),
  );
  console.log(JSON.stringify(r));
}
