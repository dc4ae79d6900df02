import { hotelToday } from '../dates/dates.ts';
import { type Clock, systemClock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { type PeriodicJob, startPeriodicJob } from '../infra/jobs/periodic-job.ts';
import { catalogRepository as repo } from './catalog.repository.ts';
import type { Hotel } from './catalog.schema.ts';
import { hotelTag, tagOfId } from './hotel-tag.ts';
import { expandYearlyPeriods } from './recurrence.ts';

/**
 * The catalogue in memory: pricing reads it on every search, so it must not cost a query. It holds
 * each hotel as the rules see it today, yearly seasons and restrictions expanded into dated ones
 * (`recurrence.ts`); as the hotel's year turns, the next refresh expands them again, so a process
 * may run for years.
 */
export class CatalogStore {
  private definitions: Hotel[] = [];
  private hotels = new Map<string, Hotel>();
  /** Hotel ids by the tag their identifiers carry (hotel-tag.ts): usually one a tag. */
  private tagged = new Map<string, string[]>();
  private fingerprint = '';
  /** The hotel-local today each hotel was expanded for; re-expanded when its year changes. */
  private expandedOn = new Map<string, string>();
  private refresher: PeriodicJob | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  get(hotelId: string): Hotel | undefined {
    return this.hotels.get(hotelId);
  }

  all(): Hotel[] {
    return [...this.hotels.values()];
  }

  /**
   * The hotels an identifier made by `taggedToken(prefix, …, bytes)` can belong to: those whose tag
   * it carries (none: it names nothing); null for an identifier made before tags.
   */
  hotelsTagged(id: string, prefix: string, bytes: number): readonly string[] | null {
    const tag = tagOfId(id, prefix, bytes);
    if (tag === null) return null;
    return tag === false ? [] : (this.tagged.get(tag) ?? []);
  }

  /** Reloads only when another process (or a catalogue load) changed a hotel, and re-expands each new year. */
  async refresh(): Promise<void> {
    const fingerprint = await repo.fingerprint(this.db);
    if (fingerprint !== this.fingerprint) {
      const stored = await repo.loadAll(this.db);
      this.definitions = stored.map((s) => s.hotel);
      this.expandedOn.clear();
      this.fingerprint = fingerprint;
    }
    this.expand();
  }

  /** Expands a hotel again when it was reloaded or its year (hotel-local) has changed since. */
  private expand(): void {
    const now = this.clock.now();
    const hotels = new Map<string, Hotel>();
    for (const hotel of this.definitions) {
      const today = hotelToday(hotel.timezone, now);
      const current = this.hotels.get(hotel.id);
      if (current && this.expandedOn.get(hotel.id)?.slice(0, 4) === today.slice(0, 4)) {
        hotels.set(hotel.id, current);
      } else {
        hotels.set(hotel.id, expandYearlyPeriods(hotel, today));
        this.expandedOn.set(hotel.id, today);
      }
    }
    this.hotels = hotels;
    const tagged = new Map<string, string[]>();
    for (const id of hotels.keys()) tagged.set(hotelTag(id), [...(tagged.get(hotelTag(id)) ?? []), id]);
    this.tagged = tagged;
  }

  /** Refreshes every `intervalMs` on the periodic-job primitive (a failure is logged, the next one still comes). */
  startAutoRefresh(intervalMs: number, log: { warn(obj: unknown, msg: string): void }): void {
    this.refresher = startPeriodicJob({
      name: 'catalogue refresh',
      intervalMs,
      log,
      run: () => this.refresh(),
    });
  }

  /** Stops the refreshes, waiting for one under way. */
  async stop(): Promise<void> {
    await this.refresher?.stop();
  }
}
