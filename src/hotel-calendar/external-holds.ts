import { eachNight } from '../dates/dates.ts';
import type { Transaction } from '../infra/db/database.ts';
import { holdCalendar } from './calendar-lock.ts';
import { createAndLock } from './inventory.repository.ts';
import { type InventoryCell, NIGHTS_CHANNEL, NightStore } from './night-store.ts';

/**
 * Rooms held by other channels (docs/api.md §9.1): each external event holds one room of its room type
 * on each of its nights, in the same inventory rows bookings take rooms from, under the same locks
 * (the hotel's calendar lock shared, then the rows in their one order). A hold is counted in the
 * row's `sold` as far as rooms are left (`channel_nights.taken`); the rest is an overbooking the
 * hotel must see (`holds − taken`), kept, never dropped. Each change moves the row's `version` and
 * is told to every process as a booking's is (night-store.ts), so search sees it within a second.
 */

/** An external event's stay: one room on each night [checkIn, checkOut). */
export interface HeldStay {
  uid: string;
  checkIn: string;
  checkOut: string;
  summary: string | null;
}

/** A night whose holds do not all fit: `conflicts` holds found no room left. */
export interface NightConflict {
  night: string;
  conflicts: number;
  /** Did this change make the night's overbooking worse (a new conflict to record)? */
  grew: boolean;
}

export interface HoldsResult {
  /** Every night of the room type, from `today`, with holds that found no room. */
  conflicts: NightConflict[];
}

/**
 * Replaces the holds of one import by `stays` (already clipped to nights from `today`), then
 * brings the room type's nights touched (and every night still overbooked, which a cancellation
 * may have freed since) in step: each night takes as many of its holds as rooms allow.
 */
export async function replaceHolds(
  tx: Transaction,
  target: { hotelId: string; roomTypeId: string; importId: string },
  stays: readonly HeldStay[],
  today: string,
): Promise<HoldsResult> {
  const { hotelId, roomTypeId, importId } = target;
  await holdCalendar(tx, hotelId, 'shared');
  const { rows: old } = await tx.query<{ check_in: string; check_out: string }>(
    `DELETE FROM ical_holds WHERE import_id = $1 RETURNING check_in::text, check_out::text`,
    [importId],
  );
  if (stays.length > 0) {
    await tx.query(
      `INSERT INTO ical_holds (import_id, uid, hotel_id, room_type_id, check_in, check_out, summary)
       SELECT $1, t.uid, $2, $3, t.check_in, t.check_out, t.summary
       FROM unnest($4::text[], $5::date[], $6::date[], $7::text[]) AS t(uid, check_in, check_out, summary)`,
      [
        importId,
        hotelId,
        roomTypeId,
        stays.map((s) => s.uid),
        stays.map((s) => s.checkIn),
        stays.map((s) => s.checkOut),
        stays.map((s) => s.summary),
      ],
    );
  }
  const { rows: overbooked } = await tx.query<{ night: string }>(
    `SELECT night::text FROM channel_nights
     WHERE hotel_id = $1 AND room_type_id = $2 AND night >= $3 AND holds > taken`,
    [hotelId, roomTypeId, today],
  );
  const nights = new Set<string>(overbooked.map((r) => r.night));
  for (const stay of [...old.map((o) => ({ checkIn: o.check_in, checkOut: o.check_out })), ...stays]) {
    for (const night of eachNight(stay.checkIn, stay.checkOut)) if (night >= today) nights.add(night);
  }
  const sorted = [...nights].sort();
  if (sorted.length === 0) return { conflicts: [] };
  await createAndLock(
    tx,
    hotelId,
    sorted.map(() => roomTypeId),
    sorted,
  );
  return settleNights(tx, hotelId, roomTypeId, sorted, today);
}

/**
 * Under the rows' locks (taken by the caller): counts each night's holds over every import of the
 * room type, lets them take the rooms left, and records what they took and what did not fit.
 */
async function settleNights(
  tx: Transaction,
  hotelId: string,
  roomTypeId: string,
  nights: string[],
  today: string,
): Promise<HoldsResult> {
  const { rows } = await tx.query<{
    night: string;
    holds: number;
    taken: number;
    total: number;
    sold: number;
  }>(
    `SELECT t.night::text AS night,
       (SELECT count(*) FROM ical_holds h WHERE h.hotel_id = $1 AND h.room_type_id = $2
          AND h.check_in <= t.night AND h.check_out > t.night)::int AS holds,
       coalesce(c.taken, 0) AS taken, i.total, i.sold
     FROM unnest($3::date[]) AS t(night)
     JOIN inventory i ON i.hotel_id = $1 AND i.room_type_id = $2 AND i.night = t.night
     LEFT JOIN channel_nights c ON c.hotel_id = $1 AND c.room_type_id = $2 AND c.night = t.night
     ORDER BY t.night`,
    [hotelId, roomTypeId, nights],
  );
  const { rows: before } = await tx.query<{ night: string; conflicts: number }>(
    `SELECT night::text, holds - taken AS conflicts FROM channel_nights
     WHERE hotel_id = $1 AND room_type_id = $2 AND night = ANY($3::date[])`,
    [hotelId, roomTypeId, nights],
  );
  const was = new Map(before.map((b) => [b.night, b.conflicts]));
  const settled = rows.map((r) => {
    // Rooms the holds may use: those they hold now plus those left unsold.
    const taken = Math.max(0, Math.min(r.holds, r.taken + (r.total - r.sold)));
    return { ...r, newTaken: taken, delta: taken - r.taken };
  });
  const changed = settled.filter((s) => s.delta !== 0);
  if (changed.length > 0) {
    const { rows: updated } = await tx.query<{ cells: InventoryCell[] | null }>(
      `WITH u AS (
         UPDATE inventory i SET sold = i.sold + t.delta, version = i.version + 1
         FROM unnest($3::date[], $4::int[]) AS t(night, delta)
         WHERE i.hotel_id = $1 AND i.room_type_id = $2 AND i.night = t.night
         RETURNING i.room_type_id, i.night, i.total, i.sold, i.version
       ) SELECT json_agg(json_build_array(room_type_id, night, total, sold, version)) AS cells FROM u`,
      [hotelId, roomTypeId, changed.map((c) => c.night), changed.map((c) => c.delta)],
    );
    const cells = updated[0]?.cells ?? [];
    const store = NightStore.of(tx.database);
    if (store.shared) {
      await tx.query('SELECT pg_notify($1, $2)', [NIGHTS_CHANNEL, NightStore.payload(hotelId, cells)]);
    }
    tx.onEnd(async (committed) => {
      if (committed) store.changed(hotelId, cells);
    });
  }
  await tx.query(
    `INSERT INTO channel_nights (hotel_id, room_type_id, night, holds, taken)
     SELECT $1, $2, t.night, t.holds, t.taken FROM unnest($3::date[], $4::int[], $5::int[]) AS t(night, holds, taken)
     ON CONFLICT (hotel_id, room_type_id, night) DO UPDATE SET holds = excluded.holds, taken = excluded.taken`,
    [
      hotelId,
      roomTypeId,
      settled.map((s) => s.night),
      settled.map((s) => s.holds),
      settled.map((s) => s.newTaken),
    ],
  );
  await tx.query(
    `DELETE FROM channel_nights WHERE hotel_id = $1 AND room_type_id = $2 AND night = ANY($3::date[]) AND holds = 0`,
    [hotelId, roomTypeId, nights],
  );
  const { rows: open } = await tx.query<{ night: string; conflicts: number }>(
    `SELECT night::text, holds - taken AS conflicts FROM channel_nights
     WHERE hotel_id = $1 AND room_type_id = $2 AND night >= $3 AND holds > taken ORDER BY night`,
    [hotelId, roomTypeId, today],
  );
  return {
    conflicts: open.map((o) => ({ ...o, grew: o.conflicts > (was.get(o.night) ?? 0) })),
  };
}

/** Per night of a range: external holds and the overbookings among them, for the calendar. */
export async function channelNights(
  db: Pick<Transaction, 'query'>,
  hotelId: string,
  from: string,
  to: string,
): Promise<Map<string, { holds: number; taken: number }>> {
  const { rows } = await db.query<{ room_type_id: string; night: string; holds: number; taken: number }>(
    `SELECT room_type_id, night::text, holds, taken FROM channel_nights
     WHERE hotel_id = $1 AND night BETWEEN $2 AND $3`,
    [hotelId, from, to],
  );
  return new Map(rows.map((r) => [`${r.room_type_id}\u0000${r.night}`, { holds: r.holds, taken: r.taken }]));
}
