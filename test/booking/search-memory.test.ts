/**
 * Search answers from each process's in-memory view of the hotels' nights (night-store.ts).
 * While searches run, bookings, cancellations and calendar changes happen; afterwards every
 * search agrees at once with a fresh read of the database, and no night is sold past its rooms.
 * Runs on both engines (on PostgreSQL the process also hears its own commits' notifications,
 * late; see test/postgres/search-memory.test.ts for a second process and a cut listener). And
 * every writer of inventory moves the row's version, which keeps memory from taking an older row
 * over a newer one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { NightStore } from '../../src/hotel-calendar/night-store.ts';
import { assertAgrees, assertNotOversold } from '../helpers/search-agreement.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import {
  addDays,
  book,
  cancel,
  localToday,
  reloadHotel,
  requestQuote,
  reserve,
  roomsLeft,
  type StayBody,
  search,
} from './helpers.ts';

/** A small random generator with a seed, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s % n;
  };
}

describe('search from memory', () => {
  let app: OperatorApp;
  let hotel: HotelDef;

  before(async () => {
    hotel = makeHotel({
      roomTypes: [
        { id: 'double', name: 'Double Room', count: 4, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
        { id: 'suite', name: 'Suite', count: 2, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
      ],
    });
    // Errors logged for the failure messages; no rate limit: the searches run as long as the writes.
    app = await startOperatorApp({ LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' }, [hotel, makeHotel()]);
  });
  after(async () => app?.t.close());

  it('agrees with the database after bookings, cancellations and calendar changes made while it searched', async () => {
    const t = app.t;
    const next = random(20261123);
    const today = localToday(t);
    const stayAt = (): StayBody => {
      const from = 1 + next(12);
      return {
        hotelId: hotel.id,
        checkIn: addDays(today, from),
        checkOut: addDays(today, from + 1 + next(3)),
        adults: 1 + next(2),
      };
    };
    const booked: Array<{ code: string; token: string }> = [];
    let writing = true;
    const failures: string[] = [];
    const searches = (async () => {
      let n = 0;
      while (writing || n < 20) {
        // inject answers a search from memory without I/O: without a turn of the event loop between
        // them, the searches would keep the writes' database answers unread (a client over HTTP
        // cannot send that fast; a query then timed out under load, 503).
        await setImmediate();
        const res = await search(t, stayAt());
        if (![200, 409, 422].includes(res.statusCode)) {
          failures.push(`${res.body} ${t.logs.filter((l) => l.includes('"level":50')).join('\n')}`);
        }
        n++;
      }
    })();
    const patch = (updates: unknown[]) =>
      t.inject({
        method: 'PATCH',
        url: `${OPERATOR}/hotels/${hotel.id}/calendar`,
        headers: auth(app.root),
        payload: { updates },
      });
    for (let i = 0; i < 60; i++) {
      const action = next(10);
      if (action < 6) {
        const q = await requestQuote(t, {
          ...stayAt(),
          roomTypeId: next(2) ? 'double' : 'suite',
          ratePlanId: 'flex',
        });
        if (q.statusCode !== 201) continue;
        const res = await reserve(t, q.json().id);
        if (res.statusCode === 201) booked.push({ code: res.json().id, token: res.json().accessToken });
        else
          assert.equal(
            res.statusCode,
            409,
            `${res.body}\n${t.logs.filter((l) => l.includes('"level":50')).join('\n')}`,
          );
      } else if (action < 8 && booked.length > 0) {
        const [victim] = booked.splice(next(booked.length), 1);
        if (victim) assert.equal((await cancel(t, victim.code, victim.token)).statusCode, 200);
      } else {
        const night = addDays(today, 1 + next(12));
        const res = await patch([
          next(2)
            ? { roomTypeIds: ['double'], from: night, to: night, set: { rooms: 2 + next(4) } }
            : {
                roomTypeIds: ['suite'],
                from: night,
                to: night,
                set: { stopSell: next(2) === 0 ? null : true },
              },
          {
            roomTypeIds: ['double'],
            ratePlanIds: ['flex'],
            from: night,
            to: night,
            set: { base: 10000 + next(5) * 1000 },
          },
        ]);
        assert.ok([200, 409].includes(res.statusCode), res.body);
      }
    }
    writing = false;
    await searches;
    assert.deepEqual(failures, []);

    const stays: StayBody[] = [];
    for (let from = 1; from <= 13; from++) {
      for (const nights of [1, 2, 3]) {
        stays.push({
          hotelId: hotel.id,
          checkIn: addDays(today, from),
          checkOut: addDays(today, from + nights),
          adults: 2,
        });
      }
    }
    // Every change was this process's own, applied to its memory as it committed: no waiting.
    await assertAgrees(t, hotel.id, stays, { atOnce: true });
    await assertNotOversold(t, hotel.id);
    // …and it was memory that answered: the hotel's window is held.
    assert.ok(NightStore.of(t.db).bytes() > 0);
  });

  it('every change of an inventory row moves its version: sales, calendar rooms, catalogue counts', async () => {
    const t = app.t;
    const def = makeHotel(); // 10 doubles
    await reloadHotel(t, def);
    const n = (days: number) => addDays(localToday(t), days);
    const rows = async () =>
      (
        await t.db.query<{ night: string; total: number; sold: number; version: number }>(
          `SELECT night::text AS night, total, sold, version::int AS version FROM inventory
           WHERE hotel_id = $1 ORDER BY night`,
          [def.id],
        )
      ).rows.map((r) => [r.night, r.total, r.sold, r.version]);
    const { reservation, token } = await book(t, {
      hotelId: def.id,
      checkIn: n(30),
      checkOut: n(32),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assert.deepEqual(await rows(), [
      [n(30), 10, 1, 1],
      [n(31), 10, 1, 1],
    ]);
    const patched = await t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/hotels/${def.id}/calendar`,
      headers: auth(app.root),
      payload: { updates: [{ roomTypeIds: ['double'], from: n(30), to: n(30), set: { rooms: 3 } }] },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    // A catalogue count moves the nights it governs (not night 30, which the calendar names).
    await reloadHotel(t, {
      ...def,
      roomTypes: def.roomTypes.map((r) => (r.id === 'double' ? { ...r, count: 11 } : r)),
    });
    assert.deepEqual(await rows(), [
      [n(30), 3, 1, 2],
      [n(31), 11, 1, 2],
    ]);
    assert.equal((await cancel(t, reservation.id, token)).statusCode, 200);
    assert.deepEqual(await rows(), [
      [n(30), 3, 0, 3],
      [n(31), 11, 0, 3],
    ]);
    // And search, from memory, shows the newest at once.
    assert.equal(await roomsLeft(t, def.id, 'double', n(30), n(31)), 3);
    assert.equal(await roomsLeft(t, def.id, 'double', n(31), n(32)), 11);
  });
});
