/**
 * The scaled-out deployment: two service processes on one PostgreSQL database, driven over real
 * HTTP with overlapping stays in a small hotel. Rooms are never oversold, inventory always equals
 * what the confirmed reservations hold, an Idempotency-Key works across processes, a quote is
 * single-use across processes, and sessions signed by one process verify with the other's keys.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type pg from 'pg';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';
import {
  DATABASE_URL,
  type HttpResult,
  http,
  inParallel,
  inventoryVersusReservations,
  needsPostgres,
  newEncryptionKey,
  type ServiceProcess,
  sqlClient,
  startService,
  writeCatalog,
} from './support.ts';

const BOOKING = '/api/v1/booking';
const PUBLIC_BASE_URL = 'https://innkeep.example';
const COUNTS = { double: 5, suite: 2 } as const;
type RoomTypeId = keyof typeof COUNTS;
/** Phase 1 sells nights FIRST .. FIRST + WINDOW - 1; later phases use nights after it. */
const FIRST = 40;
const WINDOW = 14;
const ATTEMPTS = 300;
const CONCURRENCY = 20;

const night = (offset: number) => daysFromNow(FIRST + offset);

/** A small seeded PRNG (mulberry32), so a failing run can be replayed with TEST_SEED. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Booked {
  code: string;
  accessToken: string;
}

describe('several processes on one PostgreSQL database', () => {
  const hotel = makeHotel({
    roomTypes: [
      {
        id: 'double',
        name: 'Double Room',
        count: COUNTS.double,
        maxAdults: 2,
        maxChildren: 1,
        maxOccupancy: 3,
      },
      { id: 'suite', name: 'Suite', count: COUNTS.suite, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    ],
  });
  const seed = Number(process.env.TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const services: ServiceProcess[] = [];
  let sql: pg.Client;
  const booked: Booked[] = [];
  /** Responses no rule allows: each is a failure, reported together. */
  const unexpected: string[] = [];

  const expectStatus = (what: string, r: HttpResult, allowed: Record<number, readonly string[] | null>) => {
    const codes = allowed[r.status];
    if (codes === undefined || (codes !== null && !codes.includes(r.body?.code))) {
      unexpected.push(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      return false;
    }
    return r.status < 300;
  };
  const base = () => pick(services).baseUrl;

  before(async () => {
    if (needsPostgres) return;
    const env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: newEncryptionKey(),
      CATALOG_FILE: await writeCatalog([hotel]),
      PUBLIC_BASE_URL,
      DB_POOL_SIZE: '5',
    };
    // Started together: both migrate, load the catalogue and set up signing keys at the same time.
    services.push(...(await Promise.all([startService(env), startService(env)])));
    sql = await sqlClient();
  });
  after(async () => {
    if (needsPostgres) return;
    await sql?.end();
    const exits = await Promise.all(services.map((s) => s.stop()));
    for (const exit of exits) assert.deepEqual(exit, { code: 0, signal: null });
  });

  /** Inventory equals the confirmed reservations, never above total, and search shows the rest. */
  async function assertConsistent(label: string) {
    const rows = await inventoryVersusReservations(sql, hotel.id);
    for (const row of rows) {
      const where = `${label}: ${row.room_type_id} ${row.night}`;
      assert.equal(
        row.sold ?? 0,
        row.expected,
        `${where}: inventory.sold differs from the confirmed reservations`,
      );
      assert.ok((row.sold ?? 0) <= COUNTS[row.room_type_id as RoomTypeId], `${where}: oversold`);
    }
    const sold = new Map(rows.map((r) => [`${r.room_type_id} ${r.night}`, r.expected]));
    await inParallel(
      Array.from({ length: WINDOW }, (_, i) => night(i)),
      4,
      async (date, i) => {
        const r = await http(
          (services[i % services.length] as ServiceProcess).baseUrl,
          'POST',
          `${BOOKING}/availability/search`,
          {
            hotelId: hotel.id,
            checkIn: date,
            checkOut: night(i + 1),
            adults: 1,
          },
        );
        const available: Record<string, number> = {};
        if (r.status === 200) {
          for (const offer of r.body.offers) available[offer.roomType.id] = offer.available;
          for (const u of r.body.unavailable) if (u.reason === 'sold_out') available[u.roomType.id] = 0;
        } else {
          assert.equal(r.status, 409, JSON.stringify(r.body));
          for (const e of r.body.errors) if (e.reason === 'sold_out') available[e.roomTypeId] = 0;
        }
        for (const roomType of Object.keys(COUNTS) as RoomTypeId[]) {
          assert.equal(
            available[roomType],
            COUNTS[roomType] - (sold.get(`${roomType} ${date}`) ?? 0),
            `${label}: search's available for ${roomType} on ${date}`,
          );
        }
      },
    );
  }

  test('hundreds of concurrent overlapping bookings across the processes never oversell', {
    skip: needsPostgres,
  }, async (t) => {
    t.diagnostic(`TEST_SEED=${seed}`);
    const attempts = Array.from({ length: ATTEMPTS }, (_, i) => {
      const roomTypeId: RoomTypeId = random() < 0.25 ? 'suite' : 'double';
      const rooms = random() < 0.3 ? 2 : 1;
      const start = Math.floor(random() * (WINDOW - 2));
      const nights = 1 + Math.floor(random() * 3);
      return {
        i,
        stay: {
          hotelId: hotel.id,
          checkIn: night(start),
          checkOut: night(start + nights),
          adults: rooms,
          rooms,
        },
        roomTypeId,
      };
    });
    let soldOut = 0;
    await inParallel(attempts, CONCURRENCY, async ({ i, stay, roomTypeId }) => {
      const search = await http(base(), 'POST', `${BOOKING}/availability/search`, stay);
      if (!expectStatus(`search #${i}`, search, { 200: null, 409: ['no_availability'] }))
        return void soldOut++;
      const quote = await http(base(), 'POST', `${BOOKING}/quote`, {
        ...stay,
        roomTypeId,
        ratePlanId: 'flex',
      });
      if (!expectStatus(`quote #${i}`, quote, { 201: null, 409: ['no_availability'] })) return void soldOut++;
      const reservation = await http(base(), 'POST', `${BOOKING}/reservations`, {
        quoteId: quote.body.id,
        guest: { firstName: 'Guest', lastName: 'Silva', email: `guest-${i}@example.com` },
      });
      if (!expectStatus(`reservation #${i}`, reservation, { 201: null, 409: ['no_availability'] })) {
        return void soldOut++;
      }
      booked.push({ code: reservation.body.id, accessToken: reservation.body.accessToken });
    });
    assert.deepEqual(unexpected, []);
    t.diagnostic(`${booked.length} booked, ${soldOut} turned away`);
    assert.ok(booked.length > 10, 'the hotel filled up');
    assert.ok(soldOut > 0, 'the hotel sold out somewhere (else this proves little)');

    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM reservations WHERE hotel_id = $1 AND status = 'confirmed'`,
      [hotel.id],
    );
    assert.equal(rows[0]?.n, booked.length, 'every 201 is one confirmed reservation, and nothing else is');
    await assertConsistent('after booking');
  });

  test('one Idempotency-Key sent to two processes at once does the work once', {
    skip: needsPostgres,
  }, async () => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    for (let k = 0; k < 8; k++) {
      const stay = {
        hotelId: hotel.id,
        checkIn: night(WINDOW + 2 + k),
        checkOut: night(WINDOW + 3 + k),
        adults: 1,
      };
      const quoteBody = { ...stay, roomTypeId: 'double', ratePlanId: 'flex' };
      const quoteKey = { 'idempotency-key': `quote-${randomUUID()}` };
      const quotes = await Promise.all(
        [a, b].map((s) => http(s.baseUrl, 'POST', `${BOOKING}/quote`, quoteBody, quoteKey)),
      );
      const quoteIds = new Set(quotes.filter((q) => q.status === 201).map((q) => q.body.id));
      for (const q of quotes)
        expectStatus(`quote with one key #${k}`, q, { 201: null, 409: ['idempotency_in_progress'] });
      assert.equal(quoteIds.size, 1, 'both processes answered with one quote');
      const { rows } = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM quotes WHERE hotel_id = $1 AND body->>'checkIn' = $2`,
        [hotel.id, stay.checkIn],
      );
      assert.equal(rows[0]?.n, 1, 'one quote was created');

      const email = `idempotent-${k}-${randomUUID()}@example.com`;
      const body = { quoteId: [...quoteIds][0], guest: { firstName: 'Ida', lastName: 'Silva', email } };
      const key = { 'idempotency-key': `reservation-${randomUUID()}` };
      const first = await Promise.all(
        [a, b].map((s) => http(s.baseUrl, 'POST', `${BOOKING}/reservations`, body, key)),
      );
      for (const r of first)
        expectStatus(`reservation with one key #${k}`, r, { 201: null, 409: ['idempotency_in_progress'] });
      const created = first.filter((r) => r.status === 201);
      assert.ok(created.length >= 1);
      // Afterwards both processes replay the same response, access token included.
      const replays = await Promise.all(
        [a, b].map((s) => http(s.baseUrl, 'POST', `${BOOKING}/reservations`, body, key)),
      );
      for (const r of [...created, ...replays]) {
        assert.equal(r.status, 201);
        assert.equal(r.body.id, created[0]?.body.id);
        assert.equal(r.body.accessToken, created[0]?.body.accessToken);
      }
      for (const r of replays) assert.equal(r.headers.get('idempotent-replayed'), 'true');
      const { rows: made } = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM reservations WHERE guest->>'email' = $1`,
        [email],
      );
      assert.equal(made[0]?.n, 1, 'one reservation was created');
    }
    assert.deepEqual(unexpected, []);
  });

  test('a quote sent to two processes at once becomes one reservation; the other is told it was used', {
    skip: needsPostgres,
  }, async () => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    for (let k = 0; k < 8; k++) {
      // Both suites on one night: whoever loses finds no rooms left, yet the answer is "quote used".
      const stay = {
        hotelId: hotel.id,
        checkIn: night(WINDOW + 12 + k),
        checkOut: night(WINDOW + 13 + k),
        adults: 2,
        rooms: 2,
      };
      const quote = await http(a.baseUrl, 'POST', `${BOOKING}/quote`, {
        ...stay,
        roomTypeId: 'suite',
        ratePlanId: 'flex',
      });
      assert.equal(quote.status, 201, JSON.stringify(quote.body));
      const body = {
        quoteId: quote.body.id,
        guest: { firstName: 'Quinn', lastName: 'Silva', email: 'q@example.com' },
      };
      const results = await Promise.all(
        [a, b].map((s) => http(s.baseUrl, 'POST', `${BOOKING}/reservations`, body)),
      );
      const statuses = results.map((r) => `${r.status} ${r.body.code ?? ''}`.trim()).sort();
      assert.deepEqual(statuses, ['201', '409 quote_already_used'], `round ${k}`);
    }
    await assertConsistent('after the quote races');
  });

  test('cancellations and modifications in parallel, some on the same reservation from both processes', {
    skip: needsPostgres,
  }, async (t) => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    const auth = (r: Booked) => ({ authorization: `Bearer ${r.accessToken}` });
    const newDates = (not?: { checkIn: string; checkOut: string }) => {
      for (;;) {
        const start = Math.floor(random() * (WINDOW - 2));
        const dates = { checkIn: night(start), checkOut: night(start + 1 + Math.floor(random() * 2)) };
        if (dates.checkIn !== not?.checkIn || dates.checkOut !== not?.checkOut) return dates;
      }
    };
    const modifyAllowed = { 200: null, 409: ['no_availability', 'reservation_cancelled'] } as const;
    const cancelAllowed = { 200: null } as const;
    const modify = (base: string, r: Booked, patch: object) =>
      http(base, 'PATCH', `${BOOKING}/reservations/${r.code}`, patch, auth(r));
    const cancel = (base: string, r: Booked) =>
      http(base, 'POST', `${BOOKING}/reservations/${r.code}/cancel`, {}, auth(r));
    const outcomes = new Map<string, number>();
    /** The highest version any response showed, per reservation: the row must end there. */
    const lastVersion = new Map<string, number>();
    const check = (
      what: string,
      r: Booked,
      response: HttpResult,
      allowed: Record<number, readonly string[] | null>,
    ) => {
      const ok = expectStatus(what, response, allowed);
      const key = `${what.split(' #')[0]} ${ok ? 'ok' : 'refused'}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      if (ok) lastVersion.set(r.code, Math.max(lastVersion.get(r.code) ?? 0, response.body.version));
      return ok;
    };

    for (let round = 1; round <= 2; round++) {
      await inParallel(booked, CONCURRENCY, async (r, i) => {
        const roll = random();
        if (roll < 0.2) {
          check(`cancel #${i}`, r, await cancel(base(), r), cancelAllowed);
        } else if (roll < 0.45) {
          check(`dates #${i}`, r, await modify(base(), r, newDates()), modifyAllowed);
        } else if (roll < 0.55) {
          const rooms = pick([1, 2]);
          check(`rooms #${i}`, r, await modify(base(), r, { rooms, adults: rooms }), modifyAllowed);
        } else if (roll < 0.65) {
          check(
            `room type #${i}`,
            r,
            await modify(base(), r, { roomTypeId: pick(['double', 'suite']) }),
            modifyAllowed,
          );
        } else if (roll < 0.85) {
          // Two different changes of one reservation, one per process: they serialise on its row,
          // so when both apply, the second saw the first (versions differ, nothing lost).
          const first = newDates();
          const both = await Promise.all([
            modify(a.baseUrl, r, first),
            modify(b.baseUrl, r, newDates(first)),
          ]);
          const applied = both.filter((x) => check(`same reservation twice #${i}`, r, x, modifyAllowed));
          if (applied.length === 2)
            assert.notEqual(applied[0]?.body.version, applied[1]?.body.version, `#${i}`);
        } else {
          const [c, m] = await Promise.all([cancel(a.baseUrl, r), modify(b.baseUrl, r, newDates())]);
          check(`cancel racing a change #${i}`, r, c, cancelAllowed);
          check(`change racing a cancel #${i}`, r, m, modifyAllowed);
          assert.equal(c.body.status, 'cancelled');
          // Either the change came first and the cancellation saw it, or it found the reservation cancelled.
          if (m.status === 200) assert.ok(c.body.version > m.body.version, `#${i}`);
        }
      });
      assert.deepEqual(unexpected, []);
      await assertConsistent(`after round ${round} of cancellations and modifications`);
    }
    t.diagnostic(JSON.stringify(Object.fromEntries([...outcomes].sort())));
    assert.ok(outcomes.get('dates ok'), 'some changes went through');
    assert.ok(outcomes.get('cancel ok'), 'some cancellations went through');

    const { rows } = await sql.query<{ code: string; version: number }>(
      'SELECT code, version FROM reservations WHERE code = ANY($1::text[])',
      [[...lastVersion.keys()]],
    );
    for (const row of rows) assert.equal(row.version, lastVersion.get(row.code), `version of ${row.code}`);
  });

  test("a session signed by one process verifies with the other process's JWKS", {
    skip: needsPostgres,
  }, async (t) => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    const jwksFromB = await http(b.baseUrl, 'GET', '/.well-known/jwks.json');
    if (jwksFromB.status === 404) return t.skip('needs the check-in signing keys');
    assert.equal(jwksFromB.status, 200);
    const jwksFromA = await http(a.baseUrl, 'GET', '/.well-known/jwks.json');
    assert.deepEqual(jwksFromA.body, jwksFromB.body, 'both processes publish the same keys');

    const { rows } = await sql.query<{ code: string }>(
      `SELECT code FROM reservations WHERE hotel_id = $1 AND status = 'confirmed' ORDER BY id LIMIT 1`,
      [hotel.id],
    );
    const code = rows[0]?.code;
    assert.ok(code, 'a confirmed reservation to check in');
    const opened = await http(a.baseUrl, 'POST', '/api/v1/checkin/sessions', {
      reservationId: code,
      lastName: 'Silva',
    });
    assert.ok(opened.status === 201 || opened.status === 200, JSON.stringify(opened.body));
    const fromB = await http(b.baseUrl, 'GET', `/api/v1/checkin/sessions/${opened.body.session.id}`);
    assert.equal(fromB.status, 200);

    for (const [signed, jwks] of [
      [opened.body.signature, jwksFromB.body],
      [fromB.body.signature, jwksFromA.body],
    ] as const) {
      const { payload } = await jwtVerify(signed, createLocalJWKSet(jwks), { issuer: PUBLIC_BASE_URL });
      assert.equal(payload.sub, opened.body.session.id);
    }
  });
});
