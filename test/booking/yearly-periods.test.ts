import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  assertProblem,
  eur,
  type Json,
  localToday,
  quoteOk,
  requestQuote,
  startBookingApp,
} from './helpers.ts';

// Yearly seasons and restrictions (`--MM-DD`, API.md section 6) through the booking API: the same
// catalogue entry prices and restricts every year, and a process running for years keeps up.

const flex = makeHotel().ratePlans[0];
assert.ok(flex);

const hotels = {
  summer: makeHotel({
    // Two summers ahead are bookable: the window of dated seasons reaches past them.
    maxDaysBeforeArrival: 1000,
    ratePlans: [
      { ...flex, seasons: [{ from: '--07-01', to: '--08-31', prices: { double: { base: 16000 } } }] },
    ],
    restrictions: [
      { from: '--12-20', to: '--01-05', minStay: 3 },
      { from: '--08-15', to: '--08-15', closedToArrival: true },
    ],
  }),
};

let t: TestApp;
before(async () => {
  t = await startBookingApp({ hotels: Object.values(hotels) });
});
after(() => t.close());

/** The first `monthDay` (MM-DD) at least a week after the hotel's today on the test clock, and the years after it. */
function nextYears(monthDay: string, count: number): string[] {
  const today = localToday(t);
  const weekAhead = new Date(Date.parse(`${today}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
  const first = Number(weekAhead.slice(0, 4)) + (weekAhead.slice(5) > monthDay ? 1 : 0);
  return Array.from({ length: count }, (_, i) => `${first + i}-${monthDay}`);
}

/** Nightly room prices of a two-adult double under flex, for a stay from `checkIn` to `checkOut`. */
async function nightlyPrices(checkIn: string, checkOut: string): Promise<Array<[string, number]>> {
  const quote = await quoteOk(t, {
    hotelId: hotels.summer.id,
    checkIn,
    checkOut,
    adults: 2,
    roomTypeId: 'double',
    ratePlanId: 'flex',
  });
  return quote.lines
    .filter((line: Json) => line.type === 'room')
    .map((line: Json) => [line.date, line.unitAmount.amount]);
}

describe('yearly seasons and restrictions', () => {
  it('prices a stay next summer and the summer after at the season price', async () => {
    for (const checkIn of nextYears('07-10', 2)) {
      const year = checkIn.slice(0, 4);
      const quote = await quoteOk(t, {
        hotelId: hotels.summer.id,
        checkIn,
        checkOut: `${year}-07-13`,
        adults: 2,
        roomTypeId: 'double',
        ratePlanId: 'flex',
      });
      assert.deepEqual(quote.total, eur(3 * 16000 + 3 * 2 * 200), checkIn);
    }
  });

  it('prices the nights on either side of the season at the plan price', async () => {
    for (const checkIn of nextYears('06-29', 2)) {
      const year = checkIn.slice(0, 4);
      assert.deepEqual(await nightlyPrices(checkIn, `${year}-07-02`), [
        [`${year}-06-29`, 12000],
        [`${year}-06-30`, 12000],
        [`${year}-07-01`, 16000],
      ]);
      assert.deepEqual(await nightlyPrices(`${year}-08-30`, `${year}-09-02`), [
        [`${year}-08-30`, 16000],
        [`${year}-08-31`, 16000],
        [`${year}-09-01`, 12000],
      ]);
    }
  });

  it('applies a yearly restriction every year, one wrapping the year end on both sides of it', async () => {
    for (const arrival of [...nextYears('08-15', 2), ...nextYears('12-30', 2), ...nextYears('01-03', 2)]) {
      const [year, month, day] = arrival.split('-').map(Number) as [number, number, number];
      const res = await requestQuote(t, {
        hotelId: hotels.summer.id,
        checkIn: arrival,
        checkOut: new Date(Date.UTC(year, month - 1, day + 2)).toISOString().slice(0, 10),
        adults: 2,
        roomTypeId: 'double',
        ratePlanId: 'flex',
      });
      const problem = assertProblem(res, 422, 'restriction_window');
      assert.equal(problem.errors[0]?.rule, month === 8 ? 'closed_to_arrival' : 'min_stay', arrival);
    }
  });

  it('keeps pricing summers right after the process has run for years', async () => {
    // Three years on, the summers two years ahead lie beyond the dates expanded at start: the
    // store expands the yearly season again on the refresh after the hotel's year turns.
    t.clock.advanceDays(3 * 365 + 1);
    await t.runtime.catalog.refresh();
    for (const checkIn of nextYears('07-10', 2)) {
      const year = checkIn.slice(0, 4);
      assert.deepEqual(await nightlyPrices(checkIn, `${year}-07-11`), [[checkIn, 16000]]);
    }
  });
});
