/**
 * Search answers from each process's in-memory view of the hotels' nights (night-store.ts).
 * While searches run, bookings, cancellations and calendar changes happen; afterwards every
 * search agrees with a fresh read of the database, and no night is sold past its rooms.
 * Runs on both engines (PostgreSQL through its notifications; see also
 * test/postgres/search-memory.test.ts for a second process and a cut listener).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { NightStore } from '../../src/hotel-calendar/night-store.ts';
import { assertAgrees, assertNotOversold } from '../helpers/search-agreement.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator/helpers.ts';
import { addDays, cancel, localToday, requestQuote, reserve, type StayBody, search } from './helpers.ts';

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
    app = await startOperatorApp({}, [hotel, makeHotel()]);
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
        else assert.equal(res.statusCode, 409, res.body);
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
    await assertAgrees(t, hotel.id, stays);
    await assertNotOversold(t, hotel.id);
    // …and it was memory that answered: the hotel's window is held.
    assert.ok(NightStore.of(t.db).bytes() > 0);
  });
});
