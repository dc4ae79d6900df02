import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { prepaidPlan, ROOM_TYPES } from '../../src/catalog/catalog.fixtures.ts';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  addDays,
  assertProblem,
  book,
  cancel,
  type Json,
  modify,
  nightlyLeft,
  type QuoteBody,
  quoteOk,
  type Response,
  recordingPayments,
  reserve,
  roomsLeft,
  startBookingApp,
  stay,
} from './helpers.ts';

// "Under any concurrency, the rooms sold for a (room type, night) never exceed the rooms that exist"
// (API.md 2.3). On the embedded engine requests interleave on one connection; on PostgreSQL
// (DATABASE_URL) they really run in parallel transactions.

const withDoubles = (count: number): HotelDef => {
  const hotel = makeHotel({
    roomTypes: [{ ...ROOM_TYPES.double, count }, { ...ROOM_TYPES.suite }],
  });
  const prepaid = prepaidPlan({ prices: { double: { base: 11000 } } });
  return { ...hotel, ratePlans: [...hotel.ratePlans, prepaid] };
};

const hotels = {
  lastTwo: withDoubles(10),
  sameQuote: withDoubles(10),
  churn: withDoubles(3),
  oneKey: withDoubles(1),
  doubleCancel: withDoubles(1),
  ifMatch: withDoubles(5),
};

const payments = recordingPayments();
let t: TestApp;
before(async () => {
  t = await startBookingApp({ hotels: Object.values(hotels), payments: payments.provider });
});
after(() => t.close());

/** Inventory rows of a hotel straight from the database: the CHECK-guarded truth behind search. */
async function inventory(hotelId: string) {
  const { rows } = await t.db.query<{ room_type_id: string; night: string; total: number; sold: number }>(
    'SELECT room_type_id, night, total, sold FROM inventory WHERE hotel_id = $1 ORDER BY room_type_id, night',
    [hotelId],
  );
  return rows;
}

describe('concurrency', () => {
  it('sells exactly the last 2 rooms to 50 parallel reservations; the other 48 get 409 no_availability', async () => {
    const h = hotels.lastTwo;
    const { checkIn, checkOut } = stay(t, 20, 3);
    const body: QuoteBody = {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 1,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    };
    await book(t, { ...body, adults: 8, rooms: 8 });
    assert.equal(await roomsLeft(t, h.id, 'double', checkIn, checkOut), 2);
    const quotes = [];
    for (let i = 0; i < 50; i++) quotes.push(await quoteOk(t, body));

    const responses = await Promise.all(quotes.map((q) => reserve(t, q.id)));
    const created = responses.filter((r) => r.statusCode === 201);
    assert.equal(created.length, 2, responses.map((r) => r.statusCode).join(','));
    for (const r of responses.filter((r) => r.statusCode !== 201)) assertProblem(r, 409, 'no_availability');
    assert.equal(new Set(created.map((r) => r.json().id)).size, 2);

    assert.equal(await roomsLeft(t, h.id, 'double', checkIn, checkOut), 0);
    const rows = await inventory(h.id);
    assert.deepEqual(
      rows.map((r) => [r.room_type_id, r.night, r.total, r.sold]),
      [0, 1, 2].map((i) => ['double', addDays(checkIn, i), 10, 10]),
    );
  });

  it('turns one quote into one reservation under parallel attempts (others 409 quote_already_used)', async () => {
    const h = hotels.sameQuote;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const responses = await Promise.all(Array.from({ length: 20 }, () => reserve(t, quote.id)));
    assert.equal(
      responses.filter((r) => r.statusCode === 201).length,
      1,
      responses.map((r) => r.body).join('\n'),
    );
    for (const r of responses.filter((r) => r.statusCode !== 201))
      assertProblem(r, 409, 'quote_already_used');
    assert.equal(await roomsLeft(t, h.id, 'double', checkIn, checkOut), 9);
  });

  it('never oversells under concurrent bookings, modifications and cancellations', async () => {
    const h = hotels.churn;
    const { checkIn } = stay(t, 20, 1);
    const d = (n: number) => addDays(checkIn, n);
    const NIGHTS = 6;
    const base = { hotelId: h.id, adults: 2, roomTypeId: 'double', ratePlanId: 'flex' };
    // Start: three reservations spread over the window.
    const held = [
      await book(t, { ...base, checkIn: d(0), checkOut: d(2) }),
      await book(t, { ...base, checkIn: d(1), checkOut: d(3) }),
      await book(t, { ...base, checkIn: d(3), checkOut: d(5) }),
    ];
    /** The latest state seen of every reservation, by code: the highest version wins. */
    const latest = new Map<string, Json>(held.map((b) => [b.reservation.id, b.reservation]));
    const tokens = new Map<string, string>(held.map((b) => [b.reservation.id, b.token]));
    const see = (r: Response) => {
      if (r.statusCode !== 200 && r.statusCode !== 201) return;
      const body = r.json();
      const known = latest.get(body.id);
      if (!known || body.version > known.version) latest.set(body.id, body);
      if (body.accessToken) tokens.set(body.id, body.accessToken);
    };
    const expectOneOf = (r: Response, allowed: string[]) => {
      if (r.statusCode === 200 || r.statusCode === 201) return;
      const code = r.json().code;
      assert.ok(allowed.includes(code), `unexpected ${r.statusCode} ${r.body}`);
    };

    for (let round = 0; round < 3; round++) {
      // New guests want the whole window or parts of it; quotes first (they hold nothing).
      const quotes = [];
      for (const [from, to] of [
        [0, 6],
        [0, 3],
        [2, 4],
        [4, 6],
        [1, 2],
      ] as const) {
        const q = await t.inject({
          method: 'POST',
          url: '/api/v1/booking/quote',
          payload: { ...base, checkIn: d(from), checkOut: d(to) },
        });
        if (q.statusCode === 201) quotes.push(q.json().id as string);
      }
      const codes = [...latest.values()].filter((r) => r.status === 'confirmed').map((r) => r.id as string);
      const [a, b, c] = codes;
      const operations: Array<Promise<Response>> = [
        ...quotes.map((id) => reserve(t, id)),
        ...(a ? [modify(t, a, tokens.get(a) as string, { checkIn: d(0), checkOut: d(NIGHTS) })] : []),
        ...(a ? [modify(t, a, tokens.get(a) as string, { rooms: 2 })] : []),
        ...(b ? [cancel(t, b, tokens.get(b) as string)] : []),
        ...(b ? [modify(t, b, tokens.get(b) as string, { checkIn: d(2), checkOut: d(5) })] : []),
        ...(c ? [modify(t, c, tokens.get(c) as string, { checkIn: d(round), checkOut: d(round + 2) })] : []),
      ];
      const results = await Promise.all(operations);
      for (const r of results) {
        expectOneOf(r, ['no_availability', 'reservation_cancelled', 'quote_already_used']);
        see(r);
      }

      // Sold per night from the reservations' own final states; never above the 3 rooms.
      const sold = Array.from({ length: NIGHTS + 1 }, () => 0);
      for (const r of latest.values()) {
        if (r.status !== 'confirmed') continue;
        for (let i = 0; i <= NIGHTS; i++) {
          if (d(i) >= r.checkIn && d(i) < r.checkOut) sold[i] = (sold[i] ?? 0) + r.rooms;
        }
      }
      for (const n of sold) assert.ok(n <= 3, `round ${round}: sold ${sold.join(',')}`);
      // Search answers from memory, and every write above was this process's own: each applied
      // its rows (with their versions) as it committed, before its response. So search agrees at
      // once on both engines, with no waiting: on PostgreSQL the notifications of these commits,
      // still arriving in commit order, are no newer than what is held and change nothing.
      assert.deepEqual(
        await nightlyLeft(t, h.id, 'double', d(0), NIGHTS + 1),
        sold.map((n) => 3 - n),
        `round ${round}`,
      );
      for (const row of await inventory(h.id))
        assert.ok(row.sold >= 0 && row.sold <= row.total, JSON.stringify(row));
    }
  });

  it('creates one reservation from parallel identical requests sharing one Idempotency-Key', async () => {
    const h = hotels.oneKey;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const headers = { 'idempotency-key': randomUUID() };
    const responses = await Promise.all(Array.from({ length: 20 }, () => reserve(t, quote.id, {}, headers)));
    const created = responses.filter((r) => r.statusCode === 201);
    assert.ok(created.length >= 1);
    for (const r of responses.filter((r) => r.statusCode !== 201))
      assertProblem(r, 409, 'idempotency_in_progress');
    assert.equal(new Set(created.map((r) => r.body)).size, 1, 'every 201 is the same response');
    const { rows } = await t.db.query('SELECT 1 FROM reservations WHERE hotel_id = $1', [h.id]);
    assert.equal(rows.length, 1);
    assert.equal(await roomsLeft(t, h.id, 'double', checkIn, checkOut), 0);
  });

  it('refunds and releases once when the same reservation is cancelled in parallel', async () => {
    const h = hotels.doubleCancel;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const body: QuoteBody = {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'prepaid',
    };
    const { reservation, token } = await book(t, body, { payment: { token: 'tok_visa' } });
    const responses = await Promise.all(Array.from({ length: 10 }, () => cancel(t, reservation.id, token)));
    for (const r of responses) assert.equal(r.statusCode, 200, r.body);
    assert.equal(
      new Set(responses.map((r) => r.body)).size,
      1,
      'every answer is the same cancelled reservation',
    );
    assert.equal(responses[0]?.json().version, 2);
    assert.equal(payments.refunds.filter((r) => r.reference.startsWith(`${reservation.id}/`)).length, 1);
    assert.equal(payments.netFor(reservation.id), 0);
    assert.equal(await roomsLeft(t, h.id, 'double', checkIn, checkOut), 1);
    const [row] = await inventory(h.id);
    assert.equal(row?.sold, 0);
  });

  it('lets exactly one of several parallel changes with the same If-Match through (others 412)', async () => {
    const h = hotels.ifMatch;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const { reservation, token, etag } = await book(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const responses = await Promise.all(
      [1, 2, 3, 4].map((extra) =>
        modify(t, reservation.id, token, { checkOut: addDays(checkOut, extra) }, { 'if-match': etag }),
      ),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    assert.equal(ok.length, 1, responses.map((r) => r.body).join('\n'));
    for (const r of responses.filter((r) => r.statusCode !== 200)) {
      assertProblem(r, 412, 'precondition_failed');
      assert.equal(r.headers.etag, '"2"');
    }
    const winner = ok[0]?.json();
    assert.equal(winner.version, 2);
    const nights = winner.nights as number;
    assert.deepEqual(
      await nightlyLeft(t, h.id, 'double', checkIn, 7),
      [0, 1, 2, 3, 4, 5, 6].map((i) => (i < nights ? 4 : 5)),
    );
  });
});
