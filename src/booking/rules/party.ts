import type { RoomTypeDef } from '../../catalog/catalog.schema.ts';

export type RoomParty = { adults: number; children: number };

/** Spreads `count` over `rooms` as evenly as possible, the first rooms taking the remainder. */
function spread(count: number, rooms: number): number[] {
  const each = Math.floor(count / rooms);
  const remainder = count % rooms;
  return Array.from({ length: rooms }, (_, i) => each + (i < remainder ? 1 : 0));
}

/**
 * Party split (API.md section 6): adults spread as evenly as possible over the rooms, the first
 * rooms taking the remainder, then children likewise.
 */
export function splitParty(adults: number, childrenCount: number, rooms: number): readonly RoomParty[] {
  const key = `${adults} ${childrenCount} ${rooms}`;
  const known = splits.get(key);
  if (known) return known;
  const split = Object.freeze(computeSplit(adults, childrenCount, rooms).map((r) => Object.freeze(r)));
  if (splits.size >= 1000) splits.clear();
  splits.set(key, split);
  return split;
}

/** Splits asked for, remembered (bounded): each search prices every offer for the same party. */
const splits = new Map<string, readonly RoomParty[]>();

function computeSplit(adults: number, childrenCount: number, rooms: number): RoomParty[] {
  if (!Number.isInteger(rooms) || rooms < 1)
    throw new RangeError(`rooms must be a positive integer: ${rooms}`);
  if (!Number.isInteger(adults) || adults < 0)
    throw new RangeError(`adults must be a whole number: ${adults}`);
  if (!Number.isInteger(childrenCount) || childrenCount < 0) {
    throw new RangeError(`children must be a whole number: ${childrenCount}`);
  }
  const adultsPerRoom = spread(adults, rooms);
  const childrenPerRoom = spread(childrenCount, rooms);
  return adultsPerRoom.map((roomAdults, i) => ({ adults: roomAdults, children: childrenPerRoom[i] ?? 0 }));
}

/** Occupancy rule: every room has an adult and stays within the room type's adult, child and guest limits. */
export function partyFits(roomType: RoomTypeDef, split: readonly RoomParty[]): boolean {
  return (
    split.length > 0 &&
    split.every(
      (room) =>
        room.adults >= 1 &&
        room.adults <= roomType.maxAdults &&
        room.children <= roomType.maxChildren &&
        room.adults + room.children <= roomType.maxOccupancy,
    )
  );
}
