import type { Hotel } from '../catalog/catalog.schema.ts';
import { addDays, nightsBetween } from '../dates/dates.ts';
import {
  type CalendarState,
  type HotelNights,
  hotelNights,
  type NightData,
  priceNightKey,
  roomNightKey,
  roomsLeft,
} from './hotel-nights.ts';

/** A changed inventory row: room type, night, total, sold and the row's version, as committed. */
export type InventoryCell = [string, string, number, number, number];
/** A cell as heard: a notification of an older build (during a rolling upgrade) has no version. */
export type HeardCell = [string, string, number, number, number?];

/**
 * Is a row at `version` no older than the one held at `held`? Versions are kept as their low 32
 * bits (4 bytes a night, like the other arrays) and compared as serial numbers (RFC 1982): exact
 * as long as the two are less than 2³¹ changes apart, and a late notification is a few behind.
 */
const notOlder = (version: number, held: number) => (((version | 0) - held) | 0) >= 0;

/**
 * One hotel's nights in a process's memory (see night-store.ts): rooms, inventory total, sold and
 * rooms left per room type in dense arrays indexed by night from `first`, read through the same
 * merged view (`hotel-nights.ts`) a fresh database read gives.
 */
export class HotelWindow {
  readonly length: number;
  readonly index: Map<string, number>;
  /**
   * Per room type, per night: rooms in force, the inventory row's total (−1: no row), sold, left,
   * and the version of the row the total and sold are from.
   */
  readonly rooms: Int32Array[];
  readonly total: Int32Array[];
  readonly sold: Int32Array[];
  readonly left: Int32Array[];
  readonly version: Int32Array[];
  readonly view: HotelNights;
  /** Night → index, for the nights of the window asked about so far. */
  private readonly nights = new Map<string, number>();
  /** Index → night, likewise. */
  private readonly dates: Array<string | undefined> = [];

  constructor(
    readonly hotel: Hotel,
    readonly first: string,
    length: number,
    state: CalendarState,
  ) {
    this.length = length;
    this.index = new Map(hotel.roomTypes.map((r, k) => [r.id, k]));
    const make = (fill: number) => hotel.roomTypes.map(() => new Int32Array(length).fill(fill));
    this.rooms = hotel.roomTypes.map((r) => new Int32Array(length).fill(r.count));
    this.total = make(-1);
    this.sold = make(0);
    this.left = make(0);
    this.version = make(0);
    const overrides = state.rooms;
    for (const [key, o] of overrides) {
      const [roomTypeId = '', night = ''] = key.split('\u0000');
      const k = this.index.get(roomTypeId);
      const n = this.indexOf(night);
      if (o.rooms !== null && k !== undefined && n >= 0) (this.rooms[k] as Int32Array)[n] = o.rooms;
    }
    for (const [key, row] of state.inventory) {
      const [roomTypeId = '', night = ''] = key.split('\u0000');
      this.set([roomTypeId, night, row.total, row.sold, row.version]);
    }
    for (let k = 0; k < hotel.roomTypes.length; k++) for (let n = 0; n < length; n++) this.refresh(k, n);
    const data: NightData = {
      roomOverride: (roomTypeId, night) =>
        overrides.size ? overrides.get(roomNightKey(roomTypeId, night)) : undefined,
      priceOverride: (roomTypeId, ratePlanId, night) =>
        state.prices.size ? state.prices.get(priceNightKey(roomTypeId, ratePlanId, night)) : undefined,
      inventory: (roomTypeId, night) => {
        const k = this.index.get(roomTypeId);
        const n = this.indexOf(night);
        if (k === undefined || n < 0) return undefined;
        const total = (this.total[k] as Int32Array)[n] as number;
        return total < 0 ? undefined : { total, sold: (this.sold[k] as Int32Array)[n] as number };
      },
      leastLeft: (roomTypeId, checkIn, checkOut) => {
        const k = this.index.get(roomTypeId);
        const from = this.indexOf(checkIn);
        const to = from + nightsBetween(checkIn, checkOut);
        if (k === undefined || from < 0 || to > length || to <= from) return 0;
        const left = this.left[k] as Int32Array;
        let least = left[from] as number;
        for (let n = from + 1; n < to; n++) least = Math.min(least, left[n] as number);
        return least;
      },
      window: { length, indexOf: (night) => this.indexOf(night), night: (n) => this.nightAt(n) },
    };
    this.view = hotelNights(hotel, data, { remember: true });
  }

  indexOf(night: string): number {
    let n = this.nights.get(night);
    if (n === undefined) {
      n = nightsBetween(this.first, night);
      if (n < 0 || n >= this.length) return -1;
      this.nights.set(night, n);
    }
    return n;
  }

  /** The night at window index `n` (0 ≤ n < length). */
  nightAt(n: number): string {
    let night = this.dates[n];
    if (night === undefined) {
      night = addDays(this.first, n);
      this.dates[n] = night;
    }
    return night;
  }

  covers(checkIn: string, checkOut: string): boolean {
    return this.indexOf(checkIn) >= 0 && this.indexOf(checkOut) >= 0;
  }

  /**
   * Takes a committed row's values unless the row held is newer: changes may be heard out of
   * commit order (this process's own commits at once, everyone's notifications later), so an
   * older one must not undo a newer one. The same version is the same row state. A cell without
   * a version (an older build's notification) is taken as it comes, as that build did.
   */
  set([roomTypeId, night, total, sold, version]: HeardCell): void {
    const k = this.index.get(roomTypeId);
    const n = this.indexOf(night);
    if (k === undefined || n < 0) return;
    const held = this.version[k] as Int32Array;
    const hasRow = ((this.total[k] as Int32Array)[n] as number) >= 0;
    if (version !== undefined) {
      if (hasRow && !notOlder(version, held[n] as number)) return;
      held[n] = version | 0;
    }
    (this.total[k] as Int32Array)[n] = total;
    (this.sold[k] as Int32Array)[n] = sold;
    this.refresh(k, n);
  }

  private refresh(k: number, n: number): void {
    const total = (this.total[k] as Int32Array)[n] as number;
    const row = total < 0 ? undefined : { total, sold: (this.sold[k] as Int32Array)[n] as number };
    (this.left[k] as Int32Array)[n] = roomsLeft((this.rooms[k] as Int32Array)[n] as number, row);
  }

  bytes(): number {
    return this.length * 4 * 5 * this.rooms.length;
  }
}
