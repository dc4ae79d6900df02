import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { bearer, book, cancel, type Json, modify, search, startBookingApp } from './helpers.ts';

// The README's booking walk-through on the bundled demo catalogue, whenever it is run: its dates
// come from the README's own `IN=` expression on the test clock, its figures from the README's
// comments. The demo's seasons and restrictions are yearly, so the figures hold every year.

const root = new URL('../../', import.meta.url);
let readme = '';
let demo: HotelDef[] = [];
let t: TestApp;

before(async () => {
  readme = await readFile(new URL('README.md', root), 'utf8');
  demo = JSON.parse(await readFile(new URL('catalog/demo.json', root), 'utf8')).hotels;
  t = await startBookingApp({ hotels: demo });
});
after(() => t?.close());

/** The walk-through's check-in date: the README's `node -p` expression, run at the test clock's now. */
function checkInOf(now: Date): string {
  const expression = /^IN=\$\(node -p "(.+)"\)$/m.exec(readme)?.[1];
  assert.ok(expression, 'the README sets IN with node -p');
  assert.match(readme, /^OUT=\$\{IN%-10\}-13 {3}# three nights$/m);
  class ClockDate extends Date {
    static override now() {
      return now.getTime();
    }
  }
  // A direct eval inside a function whose `Date` is the clock's: the value of the last statement, as node -p prints it.
  return String(new Function('Date', 'return eval(arguments[1])')(ClockDate, expression));
}

/** The figure the README prints after `marker` (the first `# …` comment on a line holding it). */
function readmeComment(marker: string): string {
  const line = readme.split('\n').find((l) => l.includes(marker) && l.includes('# '));
  assert.ok(line, marker);
  return line.slice(line.lastIndexOf('# ') + 2).trim();
}

/** Moves the test clock (forward only) to noon UTC of `date`. */
function moveClockTo(date: string): void {
  const target = Date.parse(`${date}T12:00:00Z`);
  assert.ok(target >= t.clock.now().getTime(), date);
  t.clock.advance(target - t.clock.now().getTime());
}

async function walkThrough(): Promise<void> {
  await t.runtime.catalog.refresh();
  const checkIn = checkInOf(t.clock.now());
  const checkOut = checkIn.replace(/-10$/, '-13');
  const body = {
    hotelId: 'harbour-view',
    checkIn,
    checkOut,
    adults: 2,
    children: [7],
    services: ['breakfast'],
  };

  const found = await search(t, body);
  assert.equal(found.statusCode, 200, found.body);
  const lines = found
    .json()
    .offers.map(
      (o: Json) =>
        `${o.roomType.id} / ${o.ratePlan.id}: ${o.total.amount} ${o.total.currency}, ${o.available} left`,
    );
  const printed = readme.slice(readme.indexOf('**1. Search availability**'));
  const expected = [...printed.matchAll(/^# (\w+ \/ \w+: \d+ EUR, \d+ left)$/gm)].map((m) => m[1]);
  assert.ok(expected.length >= 2);
  assert.deepEqual(lines.slice(0, expected.length), expected, checkIn);

  const { reservation, token } = await book(t, { ...body, roomTypeId: 'double', ratePlanId: 'flex' });
  const confirmed = readmeComment('< reservation.json   #').match(/^confirmed \w+: (\d+) EUR$/);
  assert.equal(`${reservation.total.amount}`, confirmed?.[1], checkIn);

  const changed = await modify(
    t,
    reservation.id,
    token,
    { services: ['breakfast', 'parking'] },
    { 'if-match': '"1"' },
  );
  assert.equal(changed.statusCode, 200, changed.body);
  assert.equal(`v${changed.json().version}: ${changed.json().total.amount}`, readmeComment('"parking"]}\''));

  const read = await t.inject({
    method: 'GET',
    url: `/api/v1/booking/reservations/${reservation.id}`,
    headers: bearer(token),
  });
  assert.equal(`v${read.json().version} ${read.json().status}`, readmeComment("d.status}`'   #"));

  const cancelled = await cancel(t, reservation.id, token);
  assert.equal(cancelled.statusCode, 200, cancelled.body);
  const c = cancelled.json();
  assert.equal(`${c.status}, fee ${c.cancellation.fee.amount}`, readmeComment('cancellation.fee.amount}'));
}

describe("the README's booking walk-through on the demo catalogue", () => {
  it('prints what the README says today', walkThrough);

  // Run later, by the test clock: where a month ahead would fall in summer, at Christmas, or on a
  // restriction, and years on (the catalogue store expands the yearly periods again).
  const year = new Date().getUTCFullYear();
  for (const date of [
    `${year + 1}-03-02`,
    `${year + 1}-03-05`,
    `${year + 1}-06-15`,
    `${year + 1}-12-01`,
    `${year + 2}-01-10`,
    `${year + 4}-07-20`,
  ]) {
    it(`prints what the README says on ${date}`, async () => {
      moveClockTo(date);
      await walkThrough();
    });
  }
});
