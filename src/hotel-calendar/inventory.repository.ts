import { type Executor, notifyAtCommit, type Transaction } from '../infra/db/database.ts';
import { channelNightsRepository } from './channel-nights.repository.ts';
import { type InventoryChange, pairs, perNight } from './inventory-order.ts';
import { type InventoryCell, NIGHTS_CHANNEL, NightStore } from './night-store.ts';

export interface NightShortage {
  roomTypeId: string;
  night: string;
  left: number;
}

/** The sellable rooms of a night: the calendar's override, else the catalogue count (0 once removed). */
const ROOMS_SQL = 'coalesce(o.rooms, CASE WHEN r.active THEN r.count ELSE 0 END)';
// Joined on the cell's own columns (`t`), so the whole primary key is the index condition: joined
// through `r`, PostgreSQL looks up (hotel, night) alone and reads every room type's row of the hotel
// for each cell, which makes a change of thousands of cells quadratic.
const OVERRIDE_JOIN = `LEFT JOIN calendar_overrides o
  ON o.hotel_id = $1 AND o.room_type_id = t.room_type_id AND o.night = t.night`;

/**
 * Creates the missing rows of (room type, night) pairs sorted by room type then night, taking the
 * night's rooms (at version 0: any row is newer than none), and locks them all in that order: the
 * one order every writer of inventory shares, so concurrent bookings and calendar changes cannot
 * deadlock.
 */
export async function createAndLock(tx: Executor, hotelId: string, types: string[], nights: string[]) {
  await tx.query(
    `INSERT INTO inventory (hotel_id, room_type_id, night, total)
     SELECT $1, t.room_type_id, t.night, ${ROOMS_SQL}
     FROM unnest($2::text[], $3::date[]) WITH ORDINALITY AS t(room_type_id, night, ord)
     JOIN room_types r ON r.hotel_id = $1 AND r.id = t.room_type_id
     ${OVERRIDE_JOIN}
     ORDER BY t.ord
     ON CONFLICT (hotel_id, room_type_id, night) DO NOTHING`,
    [hotelId, types, nights],
  );
  await tx.query(
    `SELECT 1 FROM inventory i
     JOIN unnest($2::text[], $3::date[]) AS t(room_type_id, night)
       ON i.room_type_id = t.room_type_id AND i.night = t.night
     WHERE i.hotel_id = $1
     ORDER BY i.room_type_id COLLATE "C", i.night
     FOR UPDATE OF i`,
    [hotelId, types, nights],
  );
}

export interface RoomsBelowSold {
  roomTypeId: string;
  night: string;
  rooms: number;
  sold: number;
}

export const inventoryRepository = {
  /**
   * Nights from `fromNight` on where a catalogue's new count would be below the rooms already sold
   * (the counts are in `room_types` already). A night the operator calendar gives its own rooms
   * (`calendar_overrides.rooms`) is governed by that, not by the count; a room type dropped from
   * the file stops selling and keeps its sold nights.
   */
  async belowCatalogCount(tx: Executor, hotelId: string, fromNight: string) {
    const { rows } = await tx.query<{ room_type_id: string; night: string; sold: number; count: number }>(
      `SELECT i.room_type_id, i.night, i.sold, r.count
       FROM inventory i JOIN room_types r ON r.hotel_id = i.hotel_id AND r.id = i.room_type_id
       LEFT JOIN calendar_overrides o
         ON o.hotel_id = i.hotel_id AND o.room_type_id = i.room_type_id AND o.night = i.night
       WHERE i.hotel_id = $1 AND i.night >= $2 AND r.active AND o.rooms IS NULL AND i.sold > r.count
       ORDER BY i.room_type_id, i.night LIMIT 20`,
      [hotelId, fromNight],
    );
    return rows;
  },

  /**
   * Totals from `fromNight` on follow a loaded catalogue: the count, or the calendar's rooms where
   * it names them. A removed room type's nights keep only the rooms sold (nothing more sells;
   * cancellations still release). A changed row's `version` moves with it, as with every change
   * of inventory (night-store.ts). The caller holds the hotel's calendar lock exclusively, so the
   * overrides read here are the committed ones (see catalog/apply-catalog.ts).
   */
  async followCatalog(tx: Executor, hotelId: string, fromNight: string): Promise<void> {
    // Every table named by the hotel's parameter, the subquery's too: correlated only by
    // `o.hotel_id = i.hotel_id`, Citus plans the statement before knowing the hotel and asks every
    // shard (docs/production.md §13).
    const total = `CASE WHEN r.active THEN coalesce((SELECT o.rooms FROM calendar_overrides o
        WHERE o.hotel_id = $1 AND o.room_type_id = i.room_type_id AND o.night = i.night), r.count)
      ELSE least(i.total, i.sold) END`;
    await tx.query(
      `UPDATE inventory i SET total = ${total}, version = i.version + 1
       FROM room_types r
       WHERE r.hotel_id = $1 AND r.id = i.room_type_id AND i.hotel_id = $1 AND i.night >= $2
         AND i.total <> ${total}`,
      [hotelId, fromNight],
    );
    await channelNightsRepository.giveFreedRoomsToHolds(tx, hotelId, { fromNight });
  },

  /**
   * Brings the nights' totals in step with their rooms (after the calendar changed them), under
   * the inventory locks. A night whose rooms would fall below the rooms already sold is answered
   * instead and nothing is updated; the caller must then abort the transaction. Like every
   * change of a row, it moves the row's `version` (migrations/011_inventory_version.sql).
   */
  async followRooms(
    tx: Executor,
    hotelId: string,
    roomTypeIds: readonly string[],
    nights: readonly string[],
  ): Promise<RoomsBelowSold[]> {
    const { types, nights: dates } = pairs(roomTypeIds, nights);
    return inventoryRepository.followRoomCells(tx, hotelId, types, dates);
  },

  /**
   * `followRooms` for explicit (room type, night) cells: `types[i]` on `dates[i]`, unique and
   * sorted by room type then night (the lock order), each of them a few set-based statements.
   */
  async followRoomCells(
    tx: Executor,
    hotelId: string,
    types: string[],
    dates: string[],
  ): Promise<RoomsBelowSold[]> {
    if (types.length === 0) return [];
    await createAndLock(tx, hotelId, types, dates);
    const params = [hotelId, types, dates];
    const { rows } = await tx.query<{ room_type_id: string; night: string; rooms: number; sold: number }>(
      `SELECT t.room_type_id, t.night, ${ROOMS_SQL} AS rooms, i.sold
       FROM unnest($2::text[], $3::date[]) AS t(room_type_id, night)
       JOIN room_types r ON r.hotel_id = $1 AND r.id = t.room_type_id
       ${OVERRIDE_JOIN}
       JOIN inventory i ON i.hotel_id = $1 AND i.room_type_id = t.room_type_id AND i.night = t.night
       WHERE i.sold > ${ROOMS_SQL}
       ORDER BY t.room_type_id, t.night`,
      params,
    );
    if (rows.length > 0)
      return rows.map((r) => ({ roomTypeId: r.room_type_id, night: r.night, rooms: r.rooms, sold: r.sold }));
    await tx.query(
      `UPDATE inventory i SET total = ${ROOMS_SQL}, version = i.version + 1
       FROM unnest($2::text[], $3::date[]) AS t(room_type_id, night)
       JOIN room_types r ON r.hotel_id = $1 AND r.id = t.room_type_id
       ${OVERRIDE_JOIN}
       WHERE i.hotel_id = $1 AND i.room_type_id = t.room_type_id AND i.night = t.night
         AND i.total <> ${ROOMS_SQL}`,
      params,
    );
    await channelNightsRepository.giveFreedRoomsToHolds(tx, hotelId, { roomTypeIds: types, nights: dates });
    return [];
  },

  /**
   * Moves `sold` by each night's delta (rows locked by the caller): external holds taking or giving
   * back rooms. As `apply`, each row's `version` moves, the other processes are notified at commit
   * and, once committed, this process's night store takes the new values.
   */
  async moveSold(
    tx: Transaction,
    hotelId: string,
    roomTypeId: string,
    changes: ReadonlyArray<{ night: string; delta: number }>,
  ): Promise<void> {
    const { rows } = await tx.query<{ cells: InventoryCell[] | null }>(
      `WITH u AS (
         UPDATE inventory i SET sold = i.sold + t.delta, version = i.version + 1
         FROM unnest($3::date[], $4::int[]) AS t(night, delta)
         WHERE i.hotel_id = $1 AND i.room_type_id = $2 AND i.night = t.night
         RETURNING i.room_type_id, i.night, i.total, i.sold, i.version
       ) SELECT json_agg(json_build_array(room_type_id, night, total, sold, version)) AS cells FROM u`,
      [hotelId, roomTypeId, changes.map((c) => c.night), changes.map((c) => c.delta)],
    );
    const cells = rows[0]?.cells ?? [];
    const store = NightStore.of(tx.database);
    if (store.shared) {
      tx.notify(NIGHTS_CHANNEL, NightStore.payload(hotelId, cells));
    }
    tx.onEnd(async (committed) => {
      if (committed) store.changed(hotelId, cells);
    });
  },

  /**
   * Applies room changes atomically inside the caller's transaction. Rows are locked in one global
   * order (room type, night) so concurrent bookings cannot deadlock; the conditional UPDATE (and
   * the CHECK behind it) means a night is never sold past its total. Returns the nights that
   * lacked rooms; the caller must then abort the transaction.
   *
   * Usually one statement: lock the rows in order, update them (each row's `version` counts its
   * changes), return their new `total`, `sold` and `version` and (PostgreSQL) notify the other
   * processes with them at commit. Nights never sold before get their rows created first. Once
   * committed, the process's in-memory view (`night-store.ts`) takes the new values.
   */
  async apply(tx: Transaction, hotelId: string, changes: InventoryChange[]): Promise<NightShortage[]> {
    const deltas = perNight(changes);
    if (deltas.length === 0) return [];
    const store = NightStore.of(tx.database);
    const notify = store.shared;
    const first = await updateLocked(tx, hotelId, deltas, notify);
    let cells = first.cells;
    if (cells.length < deltas.length) {
      // Nights without a row yet (or short of rooms): create the rows, lock, update the rest.
      const done = new Set(cells.map(([t, n]) => `${t}\u0000${n}`));
      const rest = deltas.filter((d) => !done.has(`${d.roomTypeId}\u0000${d.night}`));
      if (first.locked < deltas.length) {
        await createAndLock(
          tx,
          hotelId,
          rest.map((d) => d.roomTypeId),
          rest.map((d) => d.night),
        );
        cells = [...cells, ...(await updateLocked(tx, hotelId, rest, notify)).cells];
      }
    }
    if (cells.length === deltas.length) {
      const released = deltas.filter((d) => d.delta < 0);
      if (released.length > 0) {
        const held = await channelNightsRepository.giveFreedRoomsToHolds(tx, hotelId, {
          roomTypeIds: released.map((d) => d.roomTypeId),
          nights: released.map((d) => d.night),
        });
        if (held.length > 0) {
          // Newer versions of rows already in `cells`: the night store keeps the newest.
          cells = [...cells, ...held];
          if (notify) tx.notify(NIGHTS_CHANNEL, NightStore.payload(hotelId, held));
        }
      }
      tx.onEnd(async (committed) => {
        if (committed) store.changed(hotelId, cells);
      });
      return [];
    }
    const done = new Set(cells.map(([t, n]) => `${t}\u0000${n}`));
    const missing = deltas.filter((d) => !done.has(`${d.roomTypeId}\u0000${d.night}`));
    const { rows } = await tx.query<{ room_type_id: string; night: string; left: number }>(
      `SELECT t.room_type_id, t.night, coalesce(i.total - i.sold, 0)::int AS left
       FROM unnest($2::text[], $3::date[]) AS t(room_type_id, night)
       LEFT JOIN inventory i ON i.hotel_id = $1 AND i.room_type_id = t.room_type_id AND i.night = t.night
       ORDER BY t.room_type_id, t.night`,
      [hotelId, missing.map((m) => m.roomTypeId), missing.map((m) => m.night)],
    );
    return rows.map((r) => ({ roomTypeId: r.room_type_id, night: r.night, left: Math.max(0, r.left) }));
  },
};

type Delta = { roomTypeId: string; night: string; delta: number };

/**
 * One statement: locks the existing rows of `deltas` in the shared order, applies the deltas that
 * fit (bumping each row's version), and answers how many rows it locked and the updated rows' new
 * values and versions; with `notify`, those go on the notification channel with the COMMIT
 * (delivered at commit, dropped on rollback).
 */
async function updateLocked(tx: Executor, hotelId: string, deltas: Delta[], notify: boolean) {
  const { rows } = await tx.query<{ locked: number; cells: InventoryCell[] | null }>(
    `WITH t AS (
       SELECT * FROM unnest($2::text[], $3::date[], $4::int[]) AS t(room_type_id, night, delta)
     ), locked AS (
       SELECT i.room_type_id, i.night FROM inventory i
       JOIN t ON i.room_type_id = t.room_type_id AND i.night = t.night
       WHERE i.hotel_id = $1
       ORDER BY i.room_type_id COLLATE "C", i.night
       FOR UPDATE OF i
     ), updated AS (
       UPDATE inventory i SET sold = i.sold + t.delta, version = i.version + 1
       FROM locked l JOIN t ON t.room_type_id = l.room_type_id AND t.night = l.night
       WHERE i.hotel_id = $1 AND i.room_type_id = l.room_type_id AND i.night = l.night
         AND i.sold + t.delta <= i.total AND i.sold + t.delta >= 0
       RETURNING i.room_type_id, i.night, i.total, i.sold, i.version
     ), cells AS (
       SELECT json_agg(json_build_array(room_type_id, night, total, sold, version)) AS cells FROM updated
     )
     SELECT (SELECT count(*) FROM locked)::int AS locked, c.cells FROM cells c`,
    [hotelId, deltas.map((d) => d.roomTypeId), deltas.map((d) => d.night), deltas.map((d) => d.delta)],
  );
  const cells = rows[0]?.cells ?? [];
  // Sent with the COMMIT, never inside this statement: on Citus a NOTIFY inside a statement routed
  // to a shard makes the transaction one that cannot be prepared (two-phase commit).
  if (notify) await notifyAtCommit(tx, NIGHTS_CHANNEL, NightStore.payload(hotelId, cells));
  return { locked: rows[0]?.locked ?? 0, cells };
}
