/**
 * Search from memory on a scaled-out deployment (night-store.ts): another process's bookings and
 * calendar changes reach this process's view through PostgreSQL notifications, and when the
 * listening connection is lost (a TCP proxy cut, then a silent network), the view is read again
 * once it is back: search agrees with the database within 1 s of recovery (API.md 2.1). A late
 * notification of an older change never undoes a newer one the process holds (row versions).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import type pg from 'pg';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { NIGHTS_CHANNEL, NightStore } from '../../src/hotel-calendar/night-store.ts';
import { addDays, book, cancel, localToday, roomsLeft, type StayBody } from '../booking/helpers.ts';
import { assertAgrees, assertNotOversold } from '../helpers/search-agreement.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  DATABASE_URL,
  databaseUrlVia,
  eventually,
  http,
  inventoryKey,
  needsPostgres,
  newEncryptionKey,
  type ServiceProcess,
  sleep,
  sqlClient,
  startService,
  TcpProxy,
  writeCatalog,
} from './support.ts';

const BOOKING = '/api/v1/booking';
const GUEST = { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' };

describe('search from memory across processes', () => {
  const hotel: HotelDef = makeHotel({
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 5, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'suite', name: 'Suite', count: 2, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    ],
  });
  const encryptionKey = newEncryptionKey();
  let proxy: TcpProxy;
  let t: TestApp;
  let other: ServiceProcess;
  let sql: pg.Client;
  let operatorKey = '';
  let step = 0;

  before(async () => {
    if (needsPostgres) return;
    proxy = await TcpProxy.to(DATABASE_URL as string);
    // This process reaches the database (its pool and its listener) through the proxy.
    t = await startTestApp({
      hotels: [hotel],
      env: {
        DATABASE_URL: databaseUrlVia(proxy.port),
        DATA_ENCRYPTION_KEY: encryptionKey,
        LOG_LEVEL: 'silent',
        DB_POOL_SIZE: '4',
      },
    });
    other = await startService({
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: encryptionKey,
      CATALOG_FILE: await writeCatalog([hotel]),
      OPERATOR_BOOTSTRAP: 'false',
      DB_POOL_SIZE: '3',
    });
    sql = await sqlClient();
    operatorKey = await inventoryKey(sql, encryptionKey, 'search memory test');
  });
  after(async () => {
    if (needsPostgres) return;
    await sql?.end();
    await t?.close();
    assert.deepEqual(await other?.stop(), { code: 0, signal: null });
    await proxy?.cut();
  });

  const today = () => localToday(t);
  const stays = (): StayBody[] =>
    [1, 2, 3, 4, 5, 6, 7, 8].flatMap((from) =>
      [1, 3].map((nights) => ({
        hotelId: hotel.id,
        checkIn: addDays(today(), from),
        checkOut: addDays(today(), from + nights),
        adults: 2,
      })),
    );

  /** The other process books a stay and changes the calendar of a night. */
  async function writeOnTheOtherProcess() {
    step++;
    const from = 1 + (step % 7);
    const stay = {
      hotelId: hotel.id,
      checkIn: addDays(today(), from),
      checkOut: addDays(today(), from + 2),
      adults: 2,
    };
    const quote = await http(other.baseUrl, 'POST', `${BOOKING}/quote`, {
      ...stay,
      roomTypeId: step % 2 ? 'double' : 'suite',
      ratePlanId: 'flex',
    });
    if (quote.status === 201) {
      const booked = await http(other.baseUrl, 'POST', `${BOOKING}/reservations`, {
        quoteId: quote.body.id,
        guest: GUEST,
      });
      assert.ok([201, 409].includes(booked.status), JSON.stringify(booked.body));
    }
    const night = addDays(today(), 1 + ((step * 3) % 8));
    const patched = await http(
      other.baseUrl,
      'PATCH',
      `/api/v1/operator/hotels/${hotel.id}/calendar`,
      {
        updates: [
          {
            roomTypeIds: ['double'],
            ratePlanIds: ['flex'],
            from: night,
            to: night,
            set: { base: 11000 + step },
          },
          { roomTypeIds: ['suite'], from: night, to: night, set: { stopSell: step % 3 === 0 ? true : null } },
        ],
      },
      { authorization: `Bearer ${operatorKey}` },
    );
    assert.ok([200, 409].includes(patched.status), JSON.stringify(patched.body));
  }

  test('another process’s bookings and calendar changes reach this one’s searches', {
    skip: needsPostgres,
  }, async () => {
    let writing = true;
    const searching = (async () => {
      while (writing) {
        for (const body of stays().slice(0, 4)) {
          // A turn of the event loop between searches answered from memory (no I/O), so the other
          // process's answers are read meanwhile (see test/booking/search-memory.test.ts).
          await setImmediate();
          const res = await t.inject({
            method: 'POST',
            url: `${BOOKING}/availability/search`,
            payload: body,
          });
          assert.ok([200, 409, 422].includes(res.statusCode), res.body);
        }
      }
    })();
    for (let i = 0; i < 12; i++) await writeOnTheOtherProcess();
    writing = false;
    await searching;
    await assertAgrees(t, hotel.id, stays());
    await assertNotOversold(t, hotel.id);
    // …and it was memory that answered: the hotel's window is held.
    assert.ok(NightStore.of(t.db).bytes() > 0);
  });

  test('a late notification of an older change never undoes a newer one this process holds', {
    skip: needsPostgres,
  }, async () => {
    const night = addDays(today(), 20);
    const body = { hotelId: hotel.id, checkIn: night, checkOut: addDays(night, 1), roomTypeId: 'double' };
    const row = async () =>
      (
        await sql.query<{ total: number; sold: number; version: number }>(
          `SELECT total, sold, version::int AS version FROM inventory
           WHERE hotel_id = $1 AND room_type_id = 'double' AND night = $2`,
          [hotel.id, night],
        )
      ).rows[0];
    const cellOf = async () => {
      const r = await row();
      assert.ok(r);
      return ['double', night, r.total, r.sold, r.version];
    };
    /** What this process's memory holds for the night (null: it would read the database). */
    const leftInMemory = async (on = night) => {
      const h = t.runtime.catalog.get(hotel.id);
      assert.ok(h);
      const view = await NightStore.of(t.db).nights(h, today(), on, addDays(on, 1));
      return view?.leftOn('double', on) ?? null;
    };
    // Three changes of one row, all by this process (each applied here as it committed).
    const first = await book(t, { ...body, ratePlanId: 'flex', adults: 1 });
    const v1 = await cellOf(); // 1 sold, 4 left
    await book(t, { ...body, ratePlanId: 'flex', adults: 2, rooms: 2 });
    const v2 = await cellOf(); // 3 sold, 2 left
    assert.equal((await cancel(t, first.reservation.id, first.token)).statusCode, 200);
    assert.deepEqual(await row(), { total: 5, sold: 2, version: 3 });
    assert.equal(await leftInMemory(), 3);
    // The older states arrive late, as another process's notifications can: one freer, one fuller.
    for (const cell of [v1, v2]) {
      await sql.query('SELECT pg_notify($1, $2)', [
        NIGHTS_CHANNEL,
        JSON.stringify({ h: hotel.id, i: [cell] }),
      ]);
    }
    // A real change on the other process, committed after them: once this process shows it, the
    // late notifications (delivered in commit order) have been handled too.
    const next = addDays(night, 1);
    const marker = await http(other.baseUrl, 'POST', `${BOOKING}/quote`, {
      ...body,
      checkIn: next,
      checkOut: addDays(next, 1),
      ratePlanId: 'flex',
      adults: 1,
    });
    assert.equal(marker.status, 201, JSON.stringify(marker.body));
    const booked = await http(other.baseUrl, 'POST', `${BOOKING}/reservations`, {
      quoteId: marker.body.id,
      guest: GUEST,
    });
    assert.equal(booked.status, 201, JSON.stringify(booked.body));
    await eventually('the marker booking to reach this process', async () =>
      (await leftInMemory(next)) === 4 ? true : undefined,
    );
    assert.equal(await leftInMemory(), 3);
    assert.equal(await roomsLeft(t, hotel.id, 'double', night, addDays(night, 1)), 3);
    // The calendar's change of a night's rooms moves the row's version too.
    const patched = await http(
      other.baseUrl,
      'PATCH',
      `/api/v1/operator/hotels/${hotel.id}/calendar`,
      { updates: [{ roomTypeIds: ['double'], from: night, to: night, set: { rooms: 6 } }] },
      { authorization: `Bearer ${operatorKey}` },
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(await row(), { total: 6, sold: 2, version: 4 });
    await eventually('the calendar change to reach this process', async () =>
      (await leftInMemory()) === 4 ? true : undefined,
    );
  });

  test('a cut listening connection: the view is read again once the database is back', {
    skip: needsPostgres,
  }, async () => {
    await assertAgrees(t, hotel.id, stays());
    await proxy.cut();
    for (let i = 0; i < 4; i++) await writeOnTheOtherProcess();
    await sleep(300);
    await proxy.restore();
    // The database answers this process again; from then on, search agrees within 1 s.
    for (let i = 0; i < 100; i++) {
      const res = await t.inject({
        method: 'POST',
        url: `${BOOKING}/availability/search`,
        payload: stays()[0],
      });
      if (res.statusCode !== 503 && res.statusCode !== 500) break;
      await sleep(50);
    }
    await assertAgrees(t, hotel.id, stays());
  });

  test('a silent network: the heartbeat finds it, and the view is read again', {
    skip: needsPostgres,
  }, async () => {
    await assertAgrees(t, hotel.id, stays());
    proxy.freeze();
    for (let i = 0; i < 3; i++) await writeOnTheOtherProcess();
    await sleep(1500);
    await proxy.cut();
    await proxy.restore();
    for (let i = 0; i < 100; i++) {
      const res = await t.inject({
        method: 'POST',
        url: `${BOOKING}/availability/search`,
        payload: stays()[0],
      });
      if (res.statusCode !== 503 && res.statusCode !== 500) break;
      await sleep(50);
    }
    await assertAgrees(t, hotel.id, stays());
  });
});
