/**
 * A calendar PATCH racing a booking (API.md 7.4): the booking is checked against the calendar
 * under the hotel's calendar lock (src/hotel-calendar/calendar-lock.ts), so once a PATCH that
 * closes nights has answered, no booking made before it answered can still land on them, and a
 * booking already under way makes the PATCH wait for it instead.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addDays,
  assertProblem,
  book,
  localToday,
  quoteOk,
  reloadHotel,
  reserve,
} from '../booking/helpers.ts';
import { pausableDatabase } from '../helpers/faults.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

describe('calendar PATCH racing a booking', () => {
  const pausable = pausableDatabase();
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({}, [makeHotel(), makeHotel()], { wrapDb: pausable.wrap });
  });
  after(() => app.t.close());

  const night = (n: number) => addDays(localToday(app.t), n);
  const stopSell = (hotelId: string, from: string, to: string) =>
    app.t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/hotels/${hotelId}/calendar`,
      headers: auth(app.root),
      payload: { updates: [{ from, to, set: { stopSell: true } }] },
    });
  const quoteFor = (hotelId: string, checkIn: string, checkOut: string) =>
    quoteOk(app.t, { hotelId, checkIn, checkOut, adults: 2, roomTypeId: 'double', ratePlanId: 'flex' });

  it('a booking quoted before a stop-sell and sent on after it committed is refused', async () => {
    const hotelId = app.hotels[0].id;
    const quote = await quoteFor(hotelId, night(30), night(32));
    // The booking is held before its transaction begins: everything it checks outside one is done.
    const held = pausable.hold('before-begin');
    const booking = reserve(app.t, quote.id);
    await held.reached;
    const closed = await stopSell(hotelId, night(31), night(31));
    assert.equal(closed.statusCode, 200, closed.body);
    held.release();
    assertProblem(await booking, 422, 'restriction_window');
  });

  it('a stop-sell sent while a booking is taking the rooms waits for it, and the booking stands', async () => {
    const hotelId = app.hotels[1].id;
    const quote = await quoteFor(hotelId, night(40), night(42));
    const held = pausable.hold('before-commit');
    const booking = reserve(app.t, quote.id);
    await held.reached;
    let answered = false;
    const closing = stopSell(hotelId, night(41), night(41)).then((res) => {
      answered = true;
      return res;
    });
    // The PATCH must not answer while the booking that checked these nights is uncommitted.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(answered, false, 'the PATCH waited for the booking under way');
    held.release();
    const booked = await booking;
    assert.equal(booked.statusCode, 201, booked.body);
    const closed = await closing;
    assert.equal(closed.statusCode, 200, closed.body);
    const calendar = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/hotels/${hotelId}/calendar?from=${night(41)}&to=${night(41)}`,
      headers: auth(app.root),
    });
    const double = calendar.json().roomTypes.find((r: { id: string }) => r.id === 'double');
    assert.equal(double.nights[0].sold, 1, 'the booking that began first holds its room');
  });

  it('a catalogue reload racing a PATCH of a night’s rooms keeps the PATCH’s rooms', async () => {
    // The first hotel's later nights, which the tests above leave alone.
    const def = app.hotels[0];
    const hotelId = def.id;
    // A booked stay, so the nights' inventory rows exist (the reload then has rows to update).
    await book(app.t, {
      hotelId,
      checkIn: night(50),
      checkOut: night(52),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const held = pausable.hold('before-commit');
    const patched = app.t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/hotels/${hotelId}/calendar`,
      headers: auth(app.root),
      payload: { updates: [{ from: night(50), to: night(50), roomTypeIds: ['double'], set: { rooms: 3 } }] },
    });
    await held.reached;
    // Another process starting with a catalogue that raises the count, while the PATCH is uncommitted.
    const reloaded = reloadHotel(app.t, {
      ...def,
      roomTypes: def.roomTypes.map((r) => (r.id === 'double' ? { ...r, count: 12 } : r)),
    });
    await blockedOnALock();
    held.release();
    const patch = await patched;
    assert.equal(patch.statusCode, 200, patch.body);
    await reloaded;
    const { rows } = await app.t.db.query<{ night: string; total: number }>(
      `SELECT night::text AS night, total FROM inventory
       WHERE hotel_id = $1 AND room_type_id = 'double' AND night >= $2 ORDER BY night`,
      [hotelId, night(50)],
    );
    assert.deepEqual(rows, [
      { night: night(50), total: 3 },
      { night: night(51), total: 12 },
    ]);
  });

  /**
   * Waits until another transaction waits for a lock (PostgreSQL). The embedded engine runs one
   * transaction at a time, so there the reload simply queues behind the PATCH.
   */
  async function blockedOnALock(): Promise<void> {
    if (!process.env.DATABASE_URL) return new Promise((resolve) => setTimeout(resolve, 50));
    for (let attempt = 0; attempt < 500; attempt++) {
      const { rows } = await app.t.db.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if ((rows[0]?.waiting ?? 0) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail('the catalogue reload never waited for the PATCH');
  }
});
