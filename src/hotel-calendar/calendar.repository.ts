import type { Executor } from '../infra/db/database.ts';
import { transactionNow } from '../infra/db/transaction-clock.ts';
import { type CalendarState, priceNightKey, type RoomNightOverride, roomNightKey } from './hotel-nights.ts';

/** Override fields and their columns: the only names ever put into SQL text here. */
const ROOM_COLUMNS = {
  rooms: ['rooms', 'integer'],
  stopSell: ['stop_sell', 'boolean'],
  closedToArrival: ['closed_to_arrival', 'boolean'],
  closedToDeparture: ['closed_to_departure', 'boolean'],
  minStay: ['min_stay', 'integer'],
  maxStay: ['max_stay', 'integer'],
} as const satisfies Record<keyof RoomNightOverride, readonly [string, string]>;

export type Columns = Record<string, readonly [string, string]>;

/** `col = EXCLUDED.col` and the typed parameters of the fields an update names, from `$first` on. */
export function named<C extends Columns>(
  columns: C,
  fields: Partial<Record<keyof C, unknown>>,
  first: number,
) {
  const entries = Object.entries(columns).filter(([field]) => fields[field] !== undefined);
  return {
    columns: entries.map(([, [column]]) => column),
    values: entries.map(([field]) => fields[field]),
    params: entries.map(([, [, type]], i) => `$${first + i}::${type}`),
  };
}

type RoomRow = {
  room_type_id: string;
  night: string;
  rooms: number | null;
  stop_sell: boolean | null;
  closed_to_arrival: boolean | null;
  closed_to_departure: boolean | null;
  min_stay: number | null;
  max_stay: number | null;
};

type InventoryRow = { room_type_id: string; night: string; total: number; sold: number; version: number };

type PriceRow = {
  room_type_id: string;
  rate_plan_id: string;
  night: string;
  base: number | null;
  included_adults: number | null;
  extra_adult: number | null;
  child: number | null;
};

/**
 * SQL of `calendar_overrides`: a room type's rooms and restrictions per night. `loadState` reads the
 * price overrides and the inventory rows of the range with them, in the one round trip every
 * merged view of the nights costs.
 */
export const calendarRepository = {
  /**
   * Overrides and inventory rows of the nights `from`..`to` (inclusive) for `roomTypeIds`: three
   * range scans of primary keys, read fresh on every call so every process sees a change at once.
   */
  async loadState(
    db: Executor,
    hotelId: string,
    from: string,
    to: string,
    roomTypeIds: readonly string[],
  ): Promise<CalendarState> {
    const range = 'hotel_id = $1 AND room_type_id = ANY($2::text[]) AND night BETWEEN $3 AND $4';
    // One statement (one round trip) for the three range scans.
    const { rows } = await db.query<{
      rooms: RoomRow[] | null;
      prices: PriceRow[] | null;
      inventory: InventoryRow[] | null;
    }>(
      `SELECT
         (SELECT json_agg(o) FROM (SELECT room_type_id, night, rooms, stop_sell, closed_to_arrival,
            closed_to_departure, min_stay, max_stay FROM calendar_overrides WHERE ${range}) o) AS rooms,
         (SELECT json_agg(p) FROM (SELECT room_type_id, rate_plan_id, night, base, included_adults,
            extra_adult, child FROM calendar_price_overrides WHERE ${range}) p) AS prices,
         (SELECT json_agg(i) FROM (SELECT room_type_id, night, total, sold, version FROM inventory
            WHERE ${range}) i) AS inventory`,
      [hotelId, roomTypeIds, from, to],
    );
    const loaded = rows[0];
    const rooms = { rows: loaded?.rooms ?? [] };
    const prices = { rows: loaded?.prices ?? [] };
    const inventory = { rows: loaded?.inventory ?? [] };
    return {
      rooms: new Map(
        rooms.rows.map((r) => [
          roomNightKey(r.room_type_id, r.night),
          {
            rooms: r.rooms,
            stopSell: r.stop_sell,
            closedToArrival: r.closed_to_arrival,
            closedToDeparture: r.closed_to_departure,
            minStay: r.min_stay,
            maxStay: r.max_stay,
          },
        ]),
      ),
      prices: new Map(
        prices.rows.map((r) => [
          priceNightKey(r.room_type_id, r.rate_plan_id, r.night),
          { base: r.base, includedAdults: r.included_adults, extraAdult: r.extra_adult, child: r.child },
        ]),
      ),
      inventory: new Map(
        inventory.rows.map((r) => [
          roomNightKey(r.room_type_id, r.night),
          { total: r.total, sold: r.sold, version: r.version },
        ]),
      ),
    };
  },

  /** Sets the named fields (`null` clears one) of every room type on every night. */
  async setRoomNights(
    tx: Executor,
    hotelId: string,
    roomTypeIds: readonly string[],
    nights: readonly string[],
    fields: Partial<RoomNightOverride>,
  ): Promise<void> {
    const set = named(ROOM_COLUMNS, fields, 4);
    if (set.columns.length === 0 || roomTypeIds.length === 0 || nights.length === 0) return;
    await tx.query(
      `INSERT INTO calendar_overrides (hotel_id, room_type_id, night, ${set.columns.join(', ')})
       SELECT $1, t.id, n.night, ${set.params.join(', ')}
       FROM unnest($2::text[]) AS t(id) CROSS JOIN unnest($3::date[]) AS n(night)
       ORDER BY t.id COLLATE "C", n.night
       ON CONFLICT (hotel_id, room_type_id, night) DO UPDATE SET
         ${set.columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = EXCLUDED.updated_at`,
      [hotelId, roomTypeIds, nights, ...set.values],
    );
  },

  /**
   * Sets rooms and stop-sell of (room type, night) cells, one set-based statement for them all
   * (a channel's counts, room-counts.ts): each cell's `rooms` and `stopSell` (`null` clears one);
   * without `rooms`, only stop-sell is set and the rooms stay. Cells are unique and sorted.
   */
  async setRoomCells(
    tx: Executor,
    hotelId: string,
    cells: {
      roomTypeIds: readonly string[];
      nights: readonly string[];
      rooms?: ReadonlyArray<number | null>;
      stopSell: ReadonlyArray<boolean | null>;
    },
  ): Promise<void> {
    if (cells.roomTypeIds.length === 0) return;
    const withRooms = cells.rooms !== undefined;
    await tx.query(
      `INSERT INTO calendar_overrides (hotel_id, room_type_id, night, stop_sell${withRooms ? ', rooms' : ''})
       SELECT $1, t.id, t.night, t.stop_sell${withRooms ? ', t.rooms' : ''}
       FROM unnest($2::text[], $3::date[], $4::boolean[]${withRooms ? ', $5::integer[]' : ''})
         AS t(id, night, stop_sell${withRooms ? ', rooms' : ''})
       ORDER BY t.id COLLATE "C", t.night
       ON CONFLICT (hotel_id, room_type_id, night) DO UPDATE SET
         stop_sell = EXCLUDED.stop_sell${withRooms ? ', rooms = EXCLUDED.rooms' : ''}, updated_at = EXCLUDED.updated_at`,
      [hotelId, cells.roomTypeIds, cells.nights, cells.stopSell, ...(withRooms ? [cells.rooms] : [])],
    );
  },

  /** Hands rooms and stop-sell of every night from `from` back to the catalogue; answers the cells. */
  async clearRoomCountsFrom(
    tx: Executor,
    hotelId: string,
    from: string,
  ): Promise<Array<{ room_type_id: string; night: string }>> {
    // Nothing but columns and parameters: Citus refuses a function that is not immutable (now(),
    // a date's cast to text) in an UPDATE with a RETURNING on a distributed table. The night comes
    // back as text anyway (both engines parse dates as text, infra/db/database.ts).
    const now = await transactionNow(tx);
    const { rows } = await tx.query<{ room_type_id: string; night: string }>(
      `UPDATE calendar_overrides SET rooms = NULL, stop_sell = NULL, updated_at = $3
       WHERE hotel_id = $1 AND night >= $2 AND (rooms IS NOT NULL OR stop_sell IS NOT NULL)
       RETURNING room_type_id, night`,
      [hotelId, from, now],
    );
    return rows;
  },

  /** Deletes the rows of the range left with nothing overridden: the catalogue decides those nights again. */
  async deleteCleared(tx: Executor, hotelId: string, from: string, to: string): Promise<void> {
    await tx.query(
      `DELETE FROM calendar_overrides WHERE hotel_id = $1 AND night BETWEEN $2 AND $3
         AND rooms IS NULL AND stop_sell IS NULL AND closed_to_arrival IS NULL
         AND closed_to_departure IS NULL AND min_stay IS NULL AND max_stay IS NULL`,
      [hotelId, from, to],
    );
  },
};
