/**
 * The feed's order across transaction ids of different lengths (issue 23.1): ids are compared as
 * numbers by the cursor, so they must be sorted as numbers too ("999" before "1000"). Runs on both
 * engines; on PostgreSQL the ids are the server's, so the crossing of a power of ten is reached by
 * burning ids (test/helpers/transaction-ids.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bookStay } from '../booking/reservation-helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { burnTransactionIds, nextPowerOfTen, nextTransactionId } from '../helpers/transaction-ids.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

/** Past this many ids to burn, the bookings test would take more than about ten seconds. */
const BURN_BUDGET = 1_200_000n;

describe('event feed order across transaction ids of different lengths', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_WORKER: 'false' }, [
      makeHotel({ name: 'Harbour View', maxDaysBeforeArrival: 500 }),
      makeHotel({ name: 'Old Town' }),
    ]);
  });
  after(() => app.t.close());

  /** Every event of the key from the start, `limit` at a time, through `nextCursor`. */
  async function readFromStart(key: string, limit: number, query = '') {
    const seen: Array<{ id: string; type: string; data: { reservation?: { id: string }; n?: number } }> = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 1000; pages++) {
      const response = await app.t.inject({
        method: 'GET',
        url: `${OPERATOR}/events?limit=${limit}${query}${cursor ? `&after=${cursor}` : ''}`,
        headers: auth(key),
      });
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json();
      if (page.data.length === 0) return seen;
      seen.push(...page.data);
      cursor = page.nextCursor;
    }
    throw new Error('the feed never ended');
  }

  it('pages events of ids 8 to 101 in numeric order, each once', async () => {
    const hotel = app.hotels[1].id;
    // Ids every engine has given already (so below the feed's horizon), written out of order.
    const ids = [100, 9, 101, 10, 99, 8, 11];
    for (const [n, xid] of ids.entries()) {
      await app.t.db.query(
        `INSERT INTO events (xid, public_id, type, hotel_id, data)
         VALUES ($1::text::xid8, $2, 'calendar.updated', $3, $4::jsonb)`,
        [String(xid), `evt_order${n}`, hotel, JSON.stringify({ n: xid })],
      );
    }
    const { key } = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [hotel] });
    for (const limit of [1, 2, 3, 500]) {
      const seen = await readFromStart(key, limit);
      assert.deepEqual(
        seen.map((e) => e.data.n),
        [...ids].sort((a, b) => a - b),
        `limit=${limit}`,
      );
    }
  });

  it('shows each of 120 bookings once to a reader paging from the start while ids gain a digit', async (t) => {
    const hotel = app.hotels[0].id;
    const crossing = nextPowerOfTen((await nextTransactionId(app.t.db)) + 1000n);
    const toBurn = crossing - (await nextTransactionId(app.t.db));
    if (toBurn > BURN_BUDGET) {
      t.skip(`the server's transaction ids are ${toBurn} short of ${crossing}: too many to burn`);
      return;
    }
    const started = Date.now();
    const codes: string[] = [];
    const bookSome = async (n: number) => {
      for (let i = 0; i < n; i++) {
        codes.push((await bookStay(app.t, hotel, { fromToday: 10 + codes.length, nights: 1 })).code);
      }
    };
    await bookSome(60);
    // The next ids are just short of the crossing (a booking takes about four): the second 60
    // bookings cross it.
    await burnTransactionIds(app.t.db, crossing - 20n);
    const burnt = Date.now();
    await bookSome(60);

    const { rows } = await app.t.db.query<{ first: string; last: string }>(
      `SELECT min(xid)::text AS first, max(xid)::text AS last FROM events WHERE hotel_id = $1`,
      [hotel],
    );
    assert.ok(
      BigInt(rows[0]?.first ?? 0) < crossing && BigInt(rows[0]?.last ?? 0) >= crossing,
      JSON.stringify(rows),
    );

    const { key } = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [hotel] });
    const seen = await readFromStart(key, 10, '&types=reservation.created');
    const booked = seen.map((e) => e.data.reservation?.id);
    assert.equal(booked.length, 120, `${booked.length} of 120 bookings seen`);
    assert.deepEqual(booked, codes, 'every booking once, in the order they were made');
    t.diagnostic(
      `ids ${rows[0]?.first}..${rows[0]?.last} across ${crossing}; burnt ${toBurn} ids in ${burnt - started} ms with 60 bookings, ${Date.now() - started} ms in all`,
    );
  });
});
