/**
 * `GET /operator/hotels/{hotel}/reservations` (API.md 7.2): every filter, accent-insensitive search,
 * keyset paging under concurrent inserts, signed cursors, limits and hotel visibility.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, assertInvalid, assertProblem, book, cancel, type Json, stay } from '../booking/helpers.ts';
import { GUEST_DETAILS, openedSession, stepOk } from '../checkin/helpers.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

describe('operator reservation list', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp();
  });
  after(() => app.t.close());

  const list = (hotel: string, query: Record<string, string> = {}, key = app.root) =>
    app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/hotels/${hotel}/reservations?${new URLSearchParams(query)}`,
      headers: auth(key),
    });
  const codes = (res: { json(): Json }) => res.json().data.map((r: Json) => r.id);

  /** Books `nights` nights arriving `fromToday` days after the hotel's today, for `guest`. */
  async function booked(hotel: string, fromToday: number, nights: number, guest: Json) {
    const dates = stay(app.t, fromToday, nights);
    const { reservation, token } = await book(
      app.t,
      { hotelId: hotel, ...dates, adults: 1, roomTypeId: 'double', ratePlanId: 'flex' },
      { guest },
    );
    return { reservation, token, ...dates };
  }

  describe('filters', () => {
    let hotel: string;
    let a: Json; // João Gonçalves, arrives day 2, leaves day 5
    let b: Json; // Ana Silva, arrives day 4, leaves day 6, check-in in progress
    let c: Json; // Émile Zola, arrives day 10, cancelled
    let sorted: string[];
    before(async () => {
      hotel = app.hotels[0].id;
      a = await booked(hotel, 2, 3, { firstName: 'João', lastName: 'Gonçalves', email: 'joao@example.org' });
      b = await booked(hotel, 4, 2, { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' });
      c = await booked(hotel, 10, 2, {
        firstName: 'Émile',
        lastName: 'Zola',
        email: 'emile_zola@example.fr',
      });
      assert.equal((await cancel(app.t, c.reservation.id, c.token)).statusCode, 200);
      const session = await openedSession(app.t, {
        code: b.reservation.id,
        token: b.token,
        reservation: b.reservation,
        checkIn: b.checkIn,
        checkOut: b.checkOut,
      });
      await stepOk(app.t, session.id, 'guest_details', GUEST_DETAILS);
      // Another hotel's reservation, same dates and name: never listed for this hotel.
      await booked(app.hotels[1].id, 2, 3, { firstName: 'João', lastName: 'Gonçalves', email: 'j@x.org' });
      sorted = [a, b, c].map((r) => r.reservation.id);
    });

    it('lists the hotel’s reservations by check-in date, each as the 2.6 object plus the operator fields', async () => {
      const res = await list(hotel);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(codes(res), sorted);
      assert.equal(res.json().nextCursor, null);
      const first = res.json().data[0];
      const { internalNotes, source, ...reservation } = first;
      assert.deepEqual(
        reservation,
        a.reservation,
        'the object of 2.6 (with its stay of 7.5), field for field',
      );
      const stayState = reservation.stay;
      assert.equal(internalNotes, null);
      assert.equal(source, 'api');
      assert.deepEqual(stayState, { status: 'expected', arrivedAt: null, departedAt: null, roomNumbers: [] });
      assert.equal(res.json().data[1].checkin.status, 'in_progress');
      assert.equal(res.json().data[2].status, 'cancelled');
    });

    it('filters by status and check-in progress', async () => {
      assert.deepEqual(codes(await list(hotel, { status: 'cancelled' })), [c.reservation.id]);
      assert.deepEqual(codes(await list(hotel, { status: 'confirmed' })), [
        a.reservation.id,
        b.reservation.id,
      ]);
      assert.deepEqual(codes(await list(hotel, { checkin: 'in_progress' })), [b.reservation.id]);
      assert.deepEqual(codes(await list(hotel, { checkin: 'not_started' })), [
        a.reservation.id,
        c.reservation.id,
      ]);
      assert.deepEqual(codes(await list(hotel, { checkin: 'completed' })), []);
      assert.deepEqual(codes(await list(hotel, { checkin: 'not_started', status: 'confirmed' })), [
        a.reservation.id,
      ]);
    });

    it('filters by arrival and departure dates, both ends inclusive', async () => {
      const arrivals = (from?: string, to?: string) =>
        list(hotel, { ...(from ? { arrivalFrom: from } : {}), ...(to ? { arrivalTo: to } : {}) });
      assert.deepEqual(codes(await arrivals(a.checkIn, b.checkIn)), [a.reservation.id, b.reservation.id]);
      assert.deepEqual(codes(await arrivals(a.checkIn, a.checkIn)), [a.reservation.id]);
      assert.deepEqual(codes(await arrivals(b.checkIn)), [b.reservation.id, c.reservation.id]);
      assert.deepEqual(codes(await arrivals(undefined, addDays(b.checkIn, -1))), [a.reservation.id]);
      assert.deepEqual(codes(await list(hotel, { departureFrom: b.checkOut, departureTo: b.checkOut })), [
        b.reservation.id,
      ]);
      assert.deepEqual(codes(await list(hotel, { departureTo: b.checkOut })), [
        a.reservation.id,
        b.reservation.id,
      ]);
      assert.deepEqual(codes(await list(hotel, { departureFrom: addDays(b.checkOut, 1) })), [
        c.reservation.id,
      ]);
      // Today's arrivals and departures, as the front desk asks for them.
      assert.deepEqual(
        codes(await list(hotel, { arrivalFrom: a.checkIn, arrivalTo: a.checkIn, departureFrom: a.checkOut })),
        [a.reservation.id],
      );
    });

    it('searches code, name and e-mail ignoring case and accents; LIKE wildcards match literally', async () => {
      const q = async (text: string) => codes(await list(hotel, { q: text }));
      for (const text of ['joao', 'JOAO', 'João', 'goncalves', 'GONÇALVES', 'joao@example', 'ão g']) {
        assert.deepEqual(await q(text), [a.reservation.id], text);
      }
      assert.deepEqual(await q('emile'), [c.reservation.id]);
      assert.deepEqual(await q('ÉMILE'), [c.reservation.id]);
      assert.deepEqual(await q(b.reservation.id.toLowerCase()), [b.reservation.id]);
      assert.deepEqual(await q(b.reservation.id), [b.reservation.id]);
      assert.deepEqual(await q('example.'), sorted);
      assert.deepEqual(await q('_'), [c.reservation.id], 'an underscore is an underscore');
      assert.deepEqual(await q('%'), [], 'a percent sign is a percent sign');
      assert.deepEqual(await q('\\'), []);
      assert.deepEqual(await q('nobody'), []);
      assert.deepEqual(codes(await list(hotel, { q: 'silva', status: 'cancelled' })), []);
    });
  });

  it('answers 400 for unknown parameters, bad values and bad ranges; limit is 1–200', async () => {
    const hotel = app.hotels[0].id;
    assertInvalid(await list(hotel, { sort: 'code' }), '/query/sort');
    assertInvalid(await list(hotel, { limit: '0' }), '/query/limit');
    assertInvalid(await list(hotel, { limit: '201' }), '/query/limit');
    assertInvalid(await list(hotel, { limit: 'ten' }), '/query/limit');
    assertInvalid(await list(hotel, { limit: '-1' }), '/query/limit');
    assert.equal((await list(hotel, { limit: '1' })).statusCode, 200);
    assert.equal((await list(hotel, { limit: '200' })).statusCode, 200);
    assertInvalid(await list(hotel, { status: 'pending' }), '/query/status');
    assertInvalid(await list(hotel, { checkin: 'done' }), '/query/checkin');
    assertInvalid(await list(hotel, { arrivalFrom: '2027-02-30' }), '/query/arrivalFrom');
    assertInvalid(await list(hotel, { departureTo: 'tomorrow' }), '/query/departureTo');
    assertInvalid(await list(hotel, { q: '' }), '/query/q');
    assertInvalid(await list(hotel, { q: '   ' }), '/query/q');
    assertInvalid(await list(hotel, { q: 'x'.repeat(101) }), '/query/q');
    assertInvalid(
      await list(hotel, { arrivalFrom: '2027-03-02', arrivalTo: '2027-03-01' }),
      '/query/arrivalTo',
    );
    assertInvalid(
      await list(hotel, { departureFrom: '2027-01-01', departureTo: '2028-01-02' }),
      '/query/departureTo',
    );
    // 366 dates (a leap year) is the most one range may span.
    assert.equal((await list(hotel, { arrivalFrom: '2028-01-01', arrivalTo: '2028-12-31' })).statusCode, 200);
  });

  it('answers 404 for a hotel outside the key’s hotels, as for one that does not exist', async () => {
    const { key } = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [app.hotels[0].id] });
    const foreign = assertProblem(await list(app.hotels[1].id, {}, key), 404, 'not_found');
    const missing = assertProblem(await list('no-such-hotel', {}, key), 404, 'not_found');
    assert.equal(foreign.detail.replace(app.hotels[1].id, 'X'), missing.detail.replace('no-such-hotel', 'X'));
    assert.equal((await list(app.hotels[0].id, {}, key)).statusCode, 200);
  });

  describe('paging', () => {
    let hotel: string;
    before(async () => {
      hotel = app.hotels[1].id;
      // Twelve reservations over six arrival dates (two a day: same date, order by code).
      for (let i = 0; i < 12; i++) {
        await booked(hotel, 20 + Math.floor(i / 2), 1, {
          firstName: `Pager${i}`,
          lastName: 'Paging',
          email: `pager${i}@example.com`,
        });
      }
    });

    it('pages by (check-in, code) and never repeats or skips one while others are booked meanwhile', async () => {
      const existing = codes(await list(hotel, { q: 'paging', limit: '200' }));
      assert.equal(existing.length, 12);
      const seen: string[] = [];
      const inserted: Json[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: Record<string, string> = { q: 'paging', limit: '3', ...(cursor ? { cursor } : {}) };
        // Each page is read while a new reservation (before, among or after the ones listed) is made.
        const day = [19, 22, 23, 26][pages % 4] as number;
        const [res, made] = await Promise.all([
          list(hotel, query),
          booked(hotel, day, 1, { firstName: 'Late', lastName: 'Paging', email: `late${pages}@example.com` }),
        ]);
        inserted.push(made);
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json();
        assert.ok(page.data.length <= 3);
        seen.push(...page.data.map((r: Json) => r.id));
        // Every page continues in order.
        const keys = page.data.map((r: Json) => `${r.checkIn} ${r.id}`);
        assert.deepEqual([...keys].sort(), keys);
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 20);
      assert.equal(cursor, null, 'the last page says so');
      assert.equal(new Set(seen).size, seen.length, `no reservation twice: ${seen}`);
      for (const code of existing) assert.ok(seen.includes(code), `${code} was not skipped`);
      const final = codes(await list(hotel, { q: 'paging', limit: '200' }));
      // What was listed is in the final order, and anything missing was made behind the reader's position.
      assert.deepEqual(
        final.filter((code: string) => seen.includes(code)),
        seen,
      );
      assert.ok(inserted.every((r) => final.includes(r.reservation.id)));
    });

    it('keeps the filters in the cursor; a changed filter, another hotel or an edited cursor is a 400', async () => {
      const first = await list(hotel, { q: 'pager', limit: '2' });
      const { nextCursor } = first.json();
      assert.equal(typeof nextCursor, 'string');
      // The cursor alone continues the same query.
      const next = await list(hotel, { cursor: nextCursor, limit: '2' });
      assert.equal(next.statusCode, 200, next.body);
      for (const r of next.json().data) assert.match(r.guest.firstName, /^Pager/);
      assert.equal((await list(hotel, { cursor: nextCursor, q: 'PAGER', limit: '2' })).statusCode, 200);
      assertInvalid(await list(hotel, { cursor: nextCursor, q: 'late' }), '/query/cursor');
      assertInvalid(await list(hotel, { cursor: nextCursor, status: 'cancelled' }), '/query/cursor');
      assertInvalid(await list(app.hotels[0].id, { cursor: nextCursor }), '/query/cursor');
      const [body, mac] = nextCursor.split('.');
      const state = JSON.parse(Buffer.from(body, 'base64url').toString());
      state.after[0] = '2000-01-01';
      const forged = `${Buffer.from(JSON.stringify(state)).toString('base64url')}.${mac}`;
      for (const bad of [
        forged,
        `${body}.${mac.slice(0, -2)}AA`,
        body,
        `${nextCursor}.x`,
        'garbage',
        '..',
        Buffer.from('{"v":1}').toString('base64url'),
      ]) {
        assertInvalid(await list(hotel, { cursor: bad }), '/query/cursor');
      }
    });
  });
});
