import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { CatalogError, parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { GUEST, type Json, quoteOk, reserve, stay } from '../booking/helpers.ts';
import { bookStay, GUEST_DETAILS, openedSession, startCheckinApp, submitStep } from '../checkin/helpers.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';

// One translator of schema errors (src/infra/http/schema-errors.ts): the same fault in a booking
// request (Ajv), a check-in step's data and a catalogue file (TypeBox) reads the same.

type Fields = Record<string, unknown>;
const without = (fields: Fields, name: string) =>
  Object.fromEntries(Object.entries(fields).filter(([k]) => k !== name));
const LONG_EMAIL = `${'a'.repeat(243)}@example.com`; // 255 characters, one over every e-mail's limit

/**
 * Each fault: how it is made in the guest of a booking and the data of the guest_details step (the
 * field `field`), and in the catalogue's hotel, whose strings are others (the field `hotelField`).
 */
const FAULTS: {
  fault: string;
  field: string;
  hotelField: string;
  broken: (fields: Fields, field: string) => Fields;
  message: string;
}[] = [
  {
    fault: 'a missing required string',
    field: 'lastName',
    hotelField: 'timezone',
    broken: (fields, field) => without(fields, field),
    message: 'is required',
  },
  {
    fault: 'a string over its maximum length',
    field: 'email',
    hotelField: 'email',
    broken: (fields, field) => ({ ...fields, [field]: LONG_EMAIL }),
    message: 'must NOT have more than 254 characters',
  },
  {
    fault: 'a number for a string',
    field: 'lastName',
    hotelField: 'timezone',
    broken: (fields, field) => ({ ...fields, [field]: 5 }),
    message: 'must be string',
  },
  {
    fault: 'an unknown property',
    field: 'nickname',
    hotelField: 'nickname',
    broken: (fields, field) => ({ ...fields, [field]: 'Ana' }),
    message: 'is not a known field',
  },
];

/**
 * What the catalogue says about one field of its only hotel: its problems, or its warnings for what
 * it ignores (`…, ignored`: the catalogue tolerates unknown properties, API.md 6).
 */
function catalogueMessages(hotel: Fields, field: string): string[] {
  const path = `hotels/0/${field}: `;
  let lines: string[];
  try {
    lines = parseCatalog({ hotels: [hotel] }).warnings.map((w) => w.replace(/, ignored$/, ''));
  } catch (error) {
    assert.ok(error instanceof CatalogError, String(error));
    lines = error.problems;
  }
  return lines.filter((line) => line.startsWith(path)).map((line) => line.slice(path.length));
}

const messagesAt = (body: Json, path: string): string[] =>
  (body.errors ?? [])
    .filter((e: { path: string }) => e.path === path)
    .map((e: { message: string }) => e.message);

describe('the same schema fault reads the same in a booking, a check-in step and the catalogue', () => {
  let t: TestApp;
  let hotel: HotelDef;
  let session: string;
  before(async () => {
    ({ t, hotel } = await startCheckinApp());
    ({ id: session } = await openedSession(t, await bookStay(t, hotel)));
  });
  after(() => t?.close());

  for (const row of FAULTS) {
    it(`${row.fault}: "${row.message}"`, async () => {
      const quote = await quoteOk(t, {
        hotelId: hotel.id,
        ...stay(t, 5, 2),
        adults: 1,
        roomTypeId: 'double',
        ratePlanId: 'flex',
      });
      const booking = await reserve(t, quote.id, { guest: row.broken(GUEST, row.field) });
      assert.equal(booking.statusCode, 400, booking.body);
      const step = await submitStep(t, session, 'guest_details', row.broken(GUEST_DETAILS, row.field));
      assert.equal(step.statusCode, 400, step.body);

      assert.deepEqual(messagesAt(booking.json(), `/guest/${row.field}`), [row.message], booking.body);
      assert.deepEqual(messagesAt(step.json(), `/data/${row.field}`), [row.message], step.body);
      const catalogue = row.broken(makeHotel() as unknown as Fields, row.hotelField);
      assert.deepEqual(catalogueMessages(catalogue, row.hotelField), [row.message]);
    });
  }
});
