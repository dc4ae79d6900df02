/**
 * Checks shared by the tests of search from memory (night-store.ts): search agrees with a fresh
 * read of the database, and no night is sold past its rooms.
 */
import assert from 'node:assert/strict';
import { evaluate } from '../../src/booking/commands/stay-evaluation.ts';
import { withDefaults } from '../../src/booking/commands/stay-request.ts';
import { hotelToday } from '../../src/dates/dates.ts';
import type { Json, StayBody } from '../booking/helpers.ts';
import { BOOKING } from '../booking/helpers.ts';
import type { TestApp } from './test-app.ts';

type App = Pick<TestApp, 'inject' | 'runtime' | 'db' | 'clock' | 'config'>;

const search = (t: App, body: StayBody) =>
  t.inject({ method: 'POST', url: `${BOOKING}/availability/search`, payload: body });

/** What search answered, in a form both sides share: offers with rooms left and totals, and why not. */
function projection(body: Json): string[] {
  if (!body.offers) return (body.errors ?? []).map((e: Json) => `${e.roomTypeId} ${e.reason}`).sort();
  return [
    ...body.offers.map((o: Json) => `${o.roomType.id} ${o.ratePlan.id} ${o.available} ${o.total.amount}`),
    ...body.unavailable.map((u: Json) => `${u.roomType.id} ${u.reason}`),
  ].sort();
}

/** The same stay evaluated on a fresh read of the database (the path quotes and bookings take). */
async function fromDatabase(t: App, hotelId: string, body: StayBody): Promise<string[]> {
  const hotel = t.runtime.catalog.get(hotelId);
  assert.ok(hotel);
  const ctx = { db: t.db, catalog: t.runtime.catalog, clock: t.clock, config: t.config };
  const stay = withDefaults(body);
  const { offers, unavailable } = await evaluate(ctx, hotel, stay, hotelToday(hotel.timezone, t.clock.now()));
  if (offers.length === 0) return unavailable.map((u) => `${u.roomType.id} ${u.reason}`).sort();
  return [
    ...offers.map((o) => `${o.roomType.id} ${o.ratePlan.id} ${o.available} ${o.price.total.amount}`),
    ...unavailable.map((u) => `${u.roomType.id} ${u.reason}`),
  ].sort();
}

/**
 * Agreement, allowing another process's changes (their PostgreSQL notifications) the second the
 * contract gives them (API.md 2.1). `{ atOnce: true }` when every change was made by `t`'s own
 * process: each was applied to its memory as it committed, so search must agree without waiting.
 */
export async function assertAgrees(
  t: App,
  hotelId: string,
  stays: StayBody[],
  { atOnce = false } = {},
): Promise<void> {
  let mismatch = '';
  const attempts = atOnce ? 1 : 20;
  for (let attempt = 0; attempt < attempts; attempt++) {
    mismatch = '';
    for (const body of stays) {
      const answered = projection((await search(t, body)).json());
      const expected = await fromDatabase(t, hotelId, body);
      if (JSON.stringify(answered) !== JSON.stringify(expected)) {
        mismatch = `${JSON.stringify(body)}\nsearch:   ${answered.join(' | ')}\ndatabase: ${expected.join(' | ')}`;
        break;
      }
    }
    if (!mismatch) return;
    if (attempt + 1 < attempts) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`search disagrees with the database${atOnce ? '' : ' after 1 s'}:\n${mismatch}`);
}

/** No night sold past its total, and every night's sold rooms are the rooms of its live reservations. */
export async function assertNotOversold(t: App, hotelId: string): Promise<void> {
  const { rows } = await t.db.query<{
    room_type_id: string;
    night: string;
    sold: number;
    booked: number;
    total: number;
  }>(
    `SELECT i.room_type_id, i.night::text AS night, i.sold, i.total,
       coalesce((SELECT sum(r.rooms) FROM reservations r
         WHERE r.hotel_id = i.hotel_id AND r.room_type_id = i.room_type_id
           AND r.status NOT IN ('cancelled', 'no_show')
           AND i.night >= r.check_in AND i.night < r.check_out), 0)::int AS booked
     FROM inventory i WHERE i.hotel_id = $1`,
    [hotelId],
  );
  for (const r of rows) {
    assert.ok(r.sold <= r.total, `${r.room_type_id} ${r.night}: ${r.sold} sold of ${r.total}`);
    assert.equal(r.sold, r.booked, `${r.room_type_id} ${r.night}: sold ${r.sold}, reservations ${r.booked}`);
  }
}
