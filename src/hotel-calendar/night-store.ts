import type { Hotel } from '../catalog/catalog.schema.ts';
import { addDays } from '../dates/dates.ts';
import type { Database, Transaction } from '../infra/db/database.ts';
import { calendarRepository } from './calendar.repository.ts';
import type { HotelNights } from './hotel-nights.ts';
import { HotelWindow } from './hotel-window.ts';

/**
 * Each process's copy of what search needs from the database, per hotel: rooms, inventory rows
 * and the calendar's overrides of a window of nights (yesterday .. the booking window plus
 * `STAY_MARGIN` nights), in dense arrays by night index, behind the same merged view
 * (`hotel-nights.ts`) that a fresh read gives.
 *
 * Kept exact by the writes themselves: the inventory repository and the calendar hand every
 * committed change to `changed` / `calendarChanged` (the embedded engine has one process, which
 * makes every write). On PostgreSQL the writing transaction also sends a notification
 * (`pg_notify`, delivered at commit, in commit order) carrying the absolute `total`, `sold` and
 * `version` of the rows it changed. Every change of a row moves its version in the same commit, so
 * a process can hear changes out of order (its own at once, then perhaps the notification of
 * another process's older commit) and still end on the newest: a row is taken only when it is no
 * older than the one held (`HotelWindow.set`). A process's own writes show at once and are never
 * undone by a late notification; another process's show once its notification arrives. After the
 * listening connection was lost, every window is read again; while it is down, `nights` answers
 * `null` and search reads the database. Bookings always decide on the database under its locks;
 * quotes too on PostgreSQL, and on the embedded engine, where the view is exact (this process
 * makes every write and applies it before answering it), from the view (`evaluateForQuote`).
 */

export const NIGHTS_CHANNEL = 'innkeep_nights';
/** Longest stay answered from memory at the far end of the booking window; longer ones read the database. */
const STAY_MARGIN = 31;
/** The booking window assumed for a hotel without one. */
const DEFAULT_WINDOW = 365;

export type { InventoryCell } from './hotel-window.ts';

import type { HeardCell, InventoryCell } from './hotel-window.ts';

/** A notification: hotel `h` had rows `i` changed, or its calendar `c` changed (read it again). */
type Message = { h: string; i?: HeardCell[]; c?: 1 };

const stores = new WeakMap<object, NightStore>();

export class NightStore {
  private readonly windows = new Map<string, HotelWindow>();
  private readonly loading = new Map<string, Promise<HotelWindow | null>>();
  /**
   * Changes heard for a hotel while its window was being read: applied on top once it is in (those
   * the read already saw are no newer than its rows, and change nothing).
   */
  private readonly heard = new Map<string, Message[]>();
  private trusted: boolean;
  /** Bumped when the listening connection comes (back) up: windows read before are dropped. */
  private epoch = 0;

  /** The store of `db`'s process, made (and, on PostgreSQL, listening) on first use. */
  static of(db: Database): NightStore {
    let store = stores.get(db.identity);
    if (!store) {
      store = new NightStore(db);
      stores.set(db.identity, store);
    }
    return store;
  }

  private constructor(private readonly db: Database) {
    this.trusted = db.kind === 'embedded' || !db.listen;
    if (db.kind === 'postgres' && db.listen) {
      db.listen(NIGHTS_CHANNEL, {
        message: (payload) => this.receive(payload),
        connected: () => {
          this.epoch++;
          this.windows.clear();
          this.heard.clear();
          this.trusted = true;
        },
        disconnected: () => {
          this.trusted = false;
        },
      });
    }
  }

  /** Is this the PostgreSQL engine (whose other processes must be told of a change)? */
  get shared(): boolean {
    return this.db.kind === 'postgres';
  }

  /**
   * The merged view of the hotel's nights from memory, for a stay [checkIn, checkOut] inside the
   * window; `null` when the stay is outside it or the store cannot be trusted now (read the database).
   */
  async nights(hotel: Hotel, today: string, checkIn: string, checkOut: string): Promise<HotelNights | null> {
    if (!this.trusted) return null;
    const first = addDays(today, -1);
    let window = this.windows.get(hotel.id);
    if (!window || window.hotel !== hotel || window.first !== first) {
      window = (await this.load(hotel, first)) ?? undefined;
      if (!window || !this.trusted) return null;
    }
    return window.covers(checkIn, checkOut) ? window.view : null;
  }

  private load(hotel: Hotel, first: string): Promise<HotelWindow | null> {
    const running = this.loading.get(hotel.id);
    if (running) return running;
    const epoch = this.epoch;
    const length = (hotel.maxDaysBeforeArrival ?? DEFAULT_WINDOW) + 2 + STAY_MARGIN;
    this.heard.set(hotel.id, []);
    const roomTypeIds = hotel.roomTypes.map((r) => r.id);
    const promise = calendarRepository
      .loadState(this.db, hotel.id, first, addDays(first, length - 1), roomTypeIds)
      .then((state) => {
        const heard = this.heard.get(hotel.id) ?? [];
        this.heard.delete(hotel.id);
        if (epoch !== this.epoch) return null;
        if (heard.some((m) => m.c)) return null; // the calendar changed meanwhile: read it again next time
        const window = new HotelWindow(hotel, first, length, state);
        for (const m of heard) for (const cell of m.i ?? []) window.set(cell);
        this.windows.set(hotel.id, window);
        return window;
      })
      .catch(() => {
        this.heard.delete(hotel.id);
        return null;
      })
      .finally(() => this.loading.delete(hotel.id));
    this.loading.set(hotel.id, promise);
    return promise;
  }

  private receive(payload: string): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    this.apply(message);
  }

  private apply(message: Message): void {
    const heard = this.heard.get(message.h);
    if (heard) heard.push(message);
    if (message.c) {
      this.windows.delete(message.h);
      return;
    }
    const window = this.windows.get(message.h);
    if (!window) return;
    for (const cell of message.i ?? []) window.set(cell);
  }

  /**
   * Rows a committed transaction of this process changed, applied at once. On PostgreSQL its own
   * notification brings them again later, and notifications of older commits may come after them:
   * neither changes anything, as their rows are no newer.
   */
  changed(hotelId: string, cells: InventoryCell[]): void {
    this.apply({ h: hotelId, i: cells });
  }

  /** The calendar of the hotel changed (committed): its window is read again on the next search. */
  calendarChanged(hotelId: string): void {
    this.apply({ h: hotelId, c: 1 });
  }

  /** The notification payload for changed rows (a calendar change when too big for one). */
  static payload(hotelId: string, cells: InventoryCell[] | null): string {
    const text = JSON.stringify(cells ? { h: hotelId, i: cells } : { h: hotelId, c: 1 });
    // NOTIFY payloads are limited to 8000 bytes: a bigger change makes the others read the hotel again.
    return text.length < 7900 ? text : JSON.stringify({ h: hotelId, c: 1 });
  }

  /** Bytes of the arrays held (the merged view's remembered cells included). */
  bytes(): number {
    let n = 0;
    for (const w of this.windows.values()) n += w.bytes();
    return n;
  }
}

/**
 * Inside a transaction that changes a hotel's calendar: the other processes (PostgreSQL) are told
 * at commit, and this process reads the hotel's window again once it has committed.
 */
export async function announceCalendarChange(tx: Transaction, hotelId: string): Promise<void> {
  const store = NightStore.of(tx.database);
  if (store.shared) {
    tx.notify(NIGHTS_CHANNEL, NightStore.payload(hotelId, null));
  }
  tx.onEnd(async (committed) => {
    if (committed) store.calendarChanged(hotelId);
  });
}
