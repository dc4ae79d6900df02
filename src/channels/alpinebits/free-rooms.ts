import type { Hotel } from '../../catalog/catalog.schema.ts';
import { hotelToday, isCalendarDate, nightsBetween } from '../../dates/dates.ts';
import { nightsOf } from '../../hotel-calendar/calendar-update.ts';
import { type RoomCount, setRoomCounts } from '../../hotel-calendar/room-counts.ts';
import { XmlRefused } from '../../infra/xml/safe-xml.ts';
import type { ActionDefinition, ActionInput } from './action.ts';
import { type ActionResult, ERROR_CODES, errorOutcome, successOutcome } from './responses.ts';
import { attr, children, parseXml, type XmlNode } from './xml.ts';

const RS = 'OTA_HotelInvCountNotifRS';
/** One Inventory covers at most this many nights (about three years). */
const MAX_NIGHTS = 1100;
/**
 * A message sets at most this many room-type nights (API.md 11.2), counted as sent (a closing
 * season counts each room type), checked before anything is written: a bound on one message's work.
 */
export const MAX_ROOM_TYPE_NIGHTS = 50_000;

class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The hotel of `HotelCode`, when it exists and the key may act for it. */
export function hotelOf(
  ctx: { catalog: { get(id: string): Hotel | undefined } },
  input: ActionInput,
  code?: string,
) {
  const hotel = code ? ctx.catalog.get(code) : undefined;
  if (!hotel || (input.auth.hotelIds !== null && !input.auth.hotelIds.includes(hotel.id))) {
    throw new Refusal(
      ERROR_CODES.invalidHotel,
      `unknown HotelCode "${code ?? ''}" (or not one of this key's hotels)`,
    );
  }
  return hotel;
}

/** One `Inventory` as read: its room types, first and last night, and what it sets on them. */
type InventoryRead = {
  roomTypeIds: string[];
  start: string;
  end: string;
  set: Omit<RoomCount, 'roomTypeId' | 'nights'>;
};

const roomTypeNights = (i: InventoryRead) => (nightsBetween(i.start, i.end) + 1) * i.roomTypeIds.length;

/** One `Inventory`: its room type, nights and rooms (or a closing season of the whole hotel). */
function readInventory(hotel: Hotel, inventory: XmlNode, index: number): InventoryRead {
  const control = children(inventory, 'StatusApplicationControl')[0];
  const where = `Inventory ${index + 1}`;
  if (!control)
    throw new Refusal(ERROR_CODES.unableToProcess, `${where}: StatusApplicationControl is missing`);
  const start = attr(control, 'Start') ?? '';
  const end = attr(control, 'End') ?? '';
  if (!isCalendarDate(start) || !isCalendarDate(end) || end < start) {
    throw new Refusal(ERROR_CODES.unableToProcess, `${where}: Start and End must be dates, Start ≤ End`);
  }
  if (nightsBetween(start, end) + 1 > MAX_NIGHTS) {
    throw new Refusal(ERROR_CODES.unableToProcess, `${where}: at most ${MAX_NIGHTS} nights per Inventory`);
  }
  if (attr(control, 'AllInvCode') === 'true' || attr(control, 'AllInvCode') === '1') {
    // A closing season: the whole hotel is closed on those nights (stop-sell keeps what is sold).
    return { roomTypeIds: hotel.roomTypes.map((r) => r.id), start, end, set: { stopSell: true } };
  }
  if (attr(control, 'InvCode') !== undefined) {
    throw new Refusal(
      ERROR_CODES.unableToProcess,
      `${where}: distinct rooms (InvCode) are not supported, only categories`,
    );
  }
  const roomTypeId = attr(control, 'InvTypeCode');
  if (!roomTypeId || !hotel.roomTypes.some((r) => r.id === roomTypeId)) {
    throw new Refusal(ERROR_CODES.invalidRoomType, `${where}: unknown InvTypeCode "${roomTypeId ?? ''}"`);
  }
  let rooms = 0; // no InvCounts: the category is fully booked on those nights
  for (const count of children(children(inventory, 'InvCounts')[0], 'InvCount')) {
    const type = attr(count, 'CountType');
    const value = Number(attr(count, 'Count'));
    if (type !== '2') {
      throw new Refusal(
        ERROR_CODES.unableToProcess,
        `${where}: CountType ${type} is not supported (only 2, bookable)`,
      );
    }
    if (!Number.isInteger(value) || value < 0 || value > 100_000) {
      throw new Refusal(ERROR_CODES.unableToProcess, `${where}: Count must be a whole number from 0`);
    }
    rooms = value;
  }
  return { roomTypeIds: [roomTypeId], start, end, set: { rooms, stopSell: null } };
}

/**
 * `OTA_HotelInvCountNotif:FreeRooms` (AlpineBits 4.1; docs/api.md §9.2): bookable rooms per room type
 * (`InvTypeCode`) and night set the calendar's `rooms` (7.4) in one transaction. A complete set
 * (`UniqueID Instance="CompleteSet"`) first hands every night from today back to the catalogue,
 * then applies its inventories (an empty `Inventory` alone: a reset); a delta changes only the
 * nights it names. A closing season (`AllInvCode`) stops sales of every room type. A count below
 * the rooms already sold refuses the whole message and changes nothing.
 */
async function freeRooms(
  ctx: Parameters<ActionDefinition['handle']>[0],
  input: ActionInput,
): Promise<ActionResult> {
  let parsed: ReturnType<typeof parseXml>;
  try {
    parsed = parseXml(input.xml);
  } catch (error) {
    if (error instanceof XmlRefused) return { status: 400, xml: `ERROR:${error.message}` };
    throw error;
  }
  if (parsed.root !== 'OTA_HotelInvCountNotifRQ') {
    return {
      status: 400,
      xml: `ERROR:the request of this action must be an OTA_HotelInvCountNotifRQ, not ${parsed.root}`,
    };
  }
  try {
    const inventories = children(parsed.node, 'Inventories')[0];
    const hotel = hotelOf(ctx, input, attr(inventories, 'HotelCode'));
    const unique = children(parsed.node, 'UniqueID')[0];
    const completeSet = attr(unique, 'Instance') === 'CompleteSet';
    const list = children(inventories, 'Inventory');
    const reset = completeSet && list.length === 1 && !children(list[0], 'StatusApplicationControl')[0];
    const read = reset ? [] : list.map((inventory, i) => readInventory(hotel, inventory, i));
    const total = read.reduce((sum, i) => sum + roomTypeNights(i), 0);
    if (total > MAX_ROOM_TYPE_NIGHTS) {
      throw new Refusal(
        ERROR_CODES.unableToProcess,
        `the message sets ${total} room-type nights, more than the ${MAX_ROOM_TYPE_NIGHTS} one message may: send it in parts (deltas)`,
      );
    }
    const counts: RoomCount[] = read.flatMap((i) => {
      const nights = nightsOf(i.start, i.end);
      return i.roomTypeIds.map((roomTypeId) => ({ roomTypeId, nights, ...i.set }));
    });
    const updates = counts.map((c) => ({
      roomTypeIds: [c.roomTypeId],
      from: c.nights[0],
      to: c.nights[c.nights.length - 1],
      set: c.rooms !== undefined && c.stopSell === null ? { rooms: c.rooms } : { stopSell: true },
    }));
    const refused = await setRoomCounts(
      ctx,
      hotel,
      { reset: completeSet ? hotelToday(hotel.timezone, ctx.clock.now()) : null, counts },
      { source: 'alpinebits', action: 'OTA_HotelInvCountNotif:FreeRooms', completeSet, updates },
    );
    if (refused.length > 0) {
      return errorOutcome(
        RS,
        refused.slice(0, 20).map((r) => ({
          code: ERROR_CODES.noAvailability,
          text: `${r.roomTypeId} on ${r.night}: ${r.sold} rooms are already sold, more than the ${r.rooms} sent`,
        })),
      );
    }
    return successOutcome(RS);
  } catch (error) {
    if (error instanceof Refusal) return errorOutcome(RS, [{ code: error.code, text: error.message }]);
    throw error;
  }
}

export const freeRoomsAction: ActionDefinition = {
  action: 'OTA_HotelInvCountNotif:FreeRooms',
  handshakeName: 'action_OTA_HotelInvCountNotif',
  capabilities: [
    'OTA_HotelInvCountNotif_accept_categories',
    'OTA_HotelInvCountNotif_accept_deltas',
    'OTA_HotelInvCountNotif_accept_complete_set',
    'OTA_HotelInvCountNotif_accept_closing_seasons',
  ],
  scope: 'inventory:write',
  handle: freeRooms,
};

export { Refusal };
