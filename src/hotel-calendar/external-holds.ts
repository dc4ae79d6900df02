import { addDays } from '../dates/dates.ts';
import type { Transaction } from '../infra/db/database.ts';
import { holdCalendar } from './calendar-lock.ts';
import { channelNightsRepository as nightsRepo } from './channel-nights.repository.ts';
import { icalHoldsRepository as repo, type StoredHold } from './ical-holds.repository.ts';
import { createAndLock, inventoryRepository } from './inventory.repository.ts';

/**
 * Rooms held by other channels (docs/api.md §9.1): each external event holds one room of its room type
 * on each of its nights, in the same inventory rows bookings take rooms from, under the same locks
 * (the hotel's calendar lock shared, then the rows in their one order). A hold is counted in the
 * row's `sold` as far as rooms are left (`channel_nights.taken`); the rest is an overbooking the
 * hotel must see (`holds − taken`), kept, never dropped. Each change moves the row's `version` and
 * is told to every process as a booking's is (night-store.ts), so search sees it within a second.
 *
 * A fetch writes only what changed (holds gone, moved or new), and settles only the nights those
 * cover plus the nights still overbooked, each counted afresh in one set-based statement: a feed of
 * 10,000 unchanged events costs a read of its holds and no write.
 */

/** Holds inserted per statement. */
const INSERT_SLICE = 2000;

/** An external event's stay: one room on each night [checkIn, checkOut). */
export type HeldStay = StoredHold;

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
  /** Holds stored and deleted by this change (a moved stay counts in both): 0 and 0 changed nothing. */
  added: number;
  removed: number;
}

/** The holds to delete (by UID) and to insert to go from `old` to `next`: unchanged ones stay. */
export function diffHolds(
  old: readonly HeldStay[],
  next: readonly HeldStay[],
): { gone: HeldStay[]; added: HeldStay[] } {
  const same = (a: HeldStay, b: HeldStay) =>
    a.checkIn === b.checkIn && a.checkOut === b.checkOut && a.summary === b.summary;
  const before = new Map(old.map((h) => [h.uid, h]));
  const after = new Map(next.map((h) => [h.uid, h]));
  const gone = old.filter((h) => {
    const now = after.get(h.uid);
    return !now || !same(h, now);
  });
  const added = next.filter((h) => {
    const was = before.get(h.uid);
    return !was || !same(h, was);
  });
  return { gone, added };
}

/**
 * The nights from `today` that any of `stays` covers, sorted, each once: the stays' ranges are
 * merged first, so the work grows with the stays and the nights, not with their product.
 */
export function nightsCovered(stays: readonly HeldStay[], today: string): string[] {
  const ranges = stays
    .map((s) => [s.checkIn < today ? today : s.checkIn, s.checkOut] as const)
    .filter(([from, to]) => from < to)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const nights: string[] = [];
  let reached = ''; // the morning after the last night listed
  for (const [from, to] of ranges) {
    if (to <= reached) continue;
    for (let night = from > reached ? from : reached; night < to; night = addDays(night, 1))
      nights.push(night);
    reached = to;
  }
  return nights;
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
  const { gone, added } = diffHolds(await repo.holdsOf(tx, importId), stays);
  if (gone.length > 0) {
    await repo.deleteHolds(
      tx,
      importId,
      gone.map((h) => h.uid),
    );
  }
  // In slices: each statement short, so the embedded engine lets the event loop turn between them.
  for (let i = 0; i < added.length; i += INSERT_SLICE) {
    await repo.insertHolds(tx, target, added.slice(i, i + INSERT_SLICE));
  }
  const overbooked = await nightsRepo.overbooked(tx, hotelId, roomTypeId, today);
  const nights = new Set(nightsCovered([...gone, ...added], today));
  for (const o of overbooked) nights.add(o.night);
  const sorted = [...nights].sort();
  const counts = { added: added.length, removed: gone.length };
  if (sorted.length === 0) return { conflicts: [], ...counts };
  await createAndLock(
    tx,
    hotelId,
    sorted.map(() => roomTypeId),
    sorted,
  );
  return { conflicts: await settleNights(tx, hotelId, roomTypeId, sorted, today), ...counts };
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
): Promise<NightConflict[]> {
  const rows = await repo.tally(tx, hotelId, roomTypeId, nights, today);
  const was = new Map(
    (await nightsRepo.conflictsOn(tx, hotelId, roomTypeId, nights)).map((b) => [b.night, b.conflicts]),
  );
  const settled = rows.map((r) => {
    // Rooms the holds may use: those they hold now plus those left unsold.
    const taken = Math.max(0, Math.min(r.holds, r.taken + (r.total - r.sold)));
    return { night: r.night, holds: r.holds, taken, delta: taken - r.taken };
  });
  const changed = settled.filter((s) => s.delta !== 0);
  if (changed.length > 0) await inventoryRepository.moveSold(tx, hotelId, roomTypeId, changed);
  await nightsRepo.saveNights(tx, hotelId, roomTypeId, settled);
  const open = await nightsRepo.overbooked(tx, hotelId, roomTypeId, today);
  return open.map((o) => ({ ...o, grew: o.conflicts > (was.get(o.night) ?? 0) }));
}
