import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { AppContext } from '../../context.ts';
import { recordEvent } from '../../events/record-event.ts';
import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { type Audited, recordAudit } from '../../operator-access/audit-trail.ts';
import { calendarRepository as repo } from '../calendar.repository.ts';
import type { CalendarPatch, CalendarView } from '../calendar.schemas.ts';
import { holdCalendar } from '../calendar-lock.ts';
import { calendarPriceRepository } from '../calendar-price-overrides.repository.ts';
import { planCalendarPatch } from '../calendar-update.ts';
import { calendarView } from '../calendar-view.ts';
import { channelNightsRepository } from '../channel-nights.repository.ts';
import { inventoryRepository, type RoomsBelowSold } from '../inventory.repository.ts';
import { loadHotelNights } from '../load-hotel-nights.ts';
import { announceCalendarChange } from '../night-store.ts';

function roomsBelowSoldError(hotel: Hotel, refused: RoomsBelowSold[]): AppError {
  const byType = new Map<string, RoomsBelowSold[]>();
  for (const r of refused) byType.set(r.roomTypeId, [...(byType.get(r.roomTypeId) ?? []), r]);
  const name = (id: string) => hotel.roomTypes.find((r) => r.id === id)?.name ?? id;
  const errors = [...byType].map(([roomTypeId, nights]) => ({
    roomTypeId,
    reason: 'rooms_below_sold',
    message: `${name(roomTypeId)}: more rooms are already sold than the rooms asked for on ${nights
      .map((n) => `${n.night} (${n.sold} sold, ${n.rooms} asked)`)
      .join(', ')}.`,
    dates: nights.map((n) => n.night),
  }));
  const first = refused[0] as RoomsBelowSold;
  return new AppError(
    'no_availability',
    `${name(first.roomTypeId)} has ${first.sold} rooms sold on ${first.night}: rooms cannot go below that.`,
    { errors },
  );
}

/** The updates an audit entry lists (a PATCH may hold many more; the entry counts them all). */
const AUDITED_UPDATES = 50;

/**
 * `PATCH …/calendar` (API.md 7.4): every update in one transaction, or none. Rooms are brought
 * into the inventory under its locks; a night left with fewer rooms than sold refuses the whole
 * PATCH (`409 no_availability`). The change is recorded as a `calendar.updated` event with it.
 */
export async function updateCalendar(
  ctx: Pick<AppContext, 'db'> & Audited,
  hotel: Hotel,
  body: CalendarPatch,
  options: WriteOptions<CalendarView> = {},
): Promise<CalendarView> {
  const planned = planCalendarPatch(hotel, body);
  const from = body.updates.reduce((a, u) => (u.from < a ? u.from : a), body.updates[0]?.from as string);
  const to = body.updates.reduce((a, u) => (u.to > a ? u.to : a), body.updates[0]?.to as string);
  return ctx.db.transaction(async (tx) => {
    await holdCalendar(tx, hotel.id, 'exclusive');
    const roomNights = new Map<string, Set<string>>();
    for (const update of planned) {
      await repo.setRoomNights(tx, hotel.id, update.roomTypeIds, update.nights, update.room);
      await calendarPriceRepository.setPriceNights(tx, hotel.id, update.plans, update.nights, update.price);
      if (update.room.rooms === undefined) continue;
      for (const roomTypeId of update.roomTypeIds) {
        const nights = roomNights.get(roomTypeId) ?? new Set();
        for (const night of update.nights) nights.add(night);
        roomNights.set(roomTypeId, nights);
      }
    }
    const refused: RoomsBelowSold[] = [];
    for (const [roomTypeId, nights] of [...roomNights].sort(([a], [b]) => (a < b ? -1 : 1))) {
      refused.push(...(await inventoryRepository.followRooms(tx, hotel.id, [roomTypeId], [...nights])));
    }
    if (refused.length > 0) throw roomsBelowSoldError(hotel, refused);
    await repo.deleteCleared(tx, hotel.id, from, to);
    await calendarPriceRepository.deleteCleared(tx, hotel.id, from, to);
    await announceCalendarChange(tx, hotel.id);
    await recordEvent(tx, { type: 'calendar.updated', hotelId: hotel.id, data: body });
    await recordAudit(tx, ctx.audit, {
      hotelIds: [hotel.id],
      action: 'calendar.updated',
      target: { type: 'calendar', id: hotel.id },
      details: {
        from,
        to,
        updates: body.updates.slice(0, AUDITED_UPDATES),
        updateCount: body.updates.length,
      },
    });
    const channel = await channelNightsRepository.channelNights(tx, hotel.id, from, to);
    const view = calendarView(await loadHotelNights(tx, hotel, from, to), from, to, channel);
    return finishWrite(tx, view, options);
  });
}
