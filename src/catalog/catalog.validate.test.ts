import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NAME_CHARACTERS_PATTERN, TEXT_PATTERN_MESSAGES } from '../infra/http/text-schemas.ts';
import { catalogue, problemsOf } from './catalog.fixtures.ts';
import { CatalogError, parseCatalog } from './catalog.validate.ts';

describe('parseCatalog: defaults', () => {
  it('fills every optional field', () => {
    const { hotels, warnings } = parseCatalog(catalogue());
    assert.deepEqual(warnings, []);
    const [hotel] = hotels;
    assert.ok(hotel);
    assert.equal(hotel.checkInTime, '15:00');
    assert.equal(hotel.checkOutTime, '11:00');
    assert.equal(hotel.maxDaysBeforeArrival, null);
    assert.deepEqual(hotel.services, []);
    assert.deepEqual(hotel.taxes, []);
    assert.deepEqual(hotel.restrictions, []);
    assert.equal(hotel.ratePlans[0]?.freeCancellationDays, 0);
    assert.equal(hotel.ratePlans[0]?.penaltyNights, 1);
    assert.deepEqual(hotel.ratePlans[0]?.seasons, []);
    assert.deepEqual(hotel.ratePlans[0]?.prices, {
      double: { base: 12000 },
      suite: { base: 26000, child: 2500 },
    });
  });

  it('keeps given values, including zeros', () => {
    const json = catalogue();
    Object.assign(json.hotels[0], { checkInTime: '14:00', checkOutTime: '12:00', maxDaysBeforeArrival: 0 });
    Object.assign(json.hotels[0].ratePlans[0], { freeCancellationDays: 3, penaltyNights: 0 });
    const [hotel] = parseCatalog(json).hotels;
    assert.deepEqual(
      [hotel?.checkInTime, hotel?.checkOutTime, hotel?.maxDaysBeforeArrival],
      ['14:00', '12:00', 0],
    );
    assert.deepEqual([hotel?.ratePlans[0]?.freeCancellationDays, hotel?.ratePlans[0]?.penaltyNights], [3, 0]);
  });

  it('does not share objects with the input', () => {
    const json = catalogue();
    const [hotel] = parseCatalog(json).hotels;
    json.hotels[0].roomTypes[0].count = 99;
    assert.equal(hotel?.roomTypes[0]?.count, 10);
  });
});

describe('parseCatalog: schema errors', () => {
  it('reports every problem at once, one line each, with its path', () => {
    const json = catalogue();
    const hotel = json.hotels[0];
    hotel.currency = 'eur';
    hotel.roomTypes[1].count = -1;
    delete hotel.roomTypes[0].maxOccupancy;
    hotel.ratePlans[0].prepayment = 'half';
    hotel.ratePlans[0].prices.double.base = 12.5;
    assert.deepEqual(problemsOf(json), [
      'hotels/0/currency: must match pattern "^[A-Z]{3}$"',
      'hotels/0/roomTypes/0/maxOccupancy: is required',
      'hotels/0/roomTypes/1/count: must be >= 0',
      'hotels/0/ratePlans/0/prepayment: must be one of "none", "full", "deposit"',
      'hotels/0/ratePlans/0/prices/double/base: must be integer',
    ]);
  });

  it('puts the problems in the message under a count', () => {
    const json = catalogue();
    json.hotels[0].roomTypes[1].count = -1;
    assert.throws(
      () => parseCatalog(json),
      (error: unknown) =>
        error instanceof CatalogError &&
        error.message === 'Invalid catalogue (1 problem):\nhotels/0/roomTypes/1/count: must be >= 0',
    );
  });

  it('explains a tax by the form it is closest to', () => {
    const json = catalogue();
    json.hotels[0].taxes = [
      { code: 'city_tax', name: 'City tax', type: 'per_stay' },
      { code: 'vat', name: 'VAT', type: 'percent_included', rate: 0 },
      { code: 'eco', name: 'Eco tax', type: 'per_room', amount: 100 },
    ];
    assert.deepEqual(problemsOf(json), [
      'hotels/0/taxes/0/amount: is required',
      'hotels/0/taxes/1/rate: must be > 0',
      'hotels/0/taxes/2/type: must be one of "per_adult_per_night", "per_stay"',
    ]);
  });

  it('rejects dates that are not on the calendar and malformed times', () => {
    const json = catalogue();
    json.hotels[0].checkInTime = '25:00';
    json.hotels[0].restrictions = [{ from: '2027-02-30', to: '2027-03-01', stopSell: true }];
    assert.deepEqual(problemsOf(json), [
      'hotels/0/checkInTime: must match pattern "^([01][0-9]|2[0-3]):[0-5][0-9]$"',
      'hotels/0/restrictions/0/from: must be a calendar date YYYY-MM-DD, or a month-day --MM-DD for every year (--02-29: leap years only)',
    ]);
  });

  it('rejects a file that is not a catalogue at all', () => {
    assert.deepEqual(problemsOf(null), ['(root): must be object']);
    assert.deepEqual(problemsOf([]), ['(root): must be object']);
    assert.deepEqual(problemsOf({}), ['hotels: is required']);
    assert.deepEqual(problemsOf({ hotels: [] }), ['hotels: must NOT have fewer than 1 items']);
  });

  it('enforces the bounds of counts and occupancy', () => {
    const json = catalogue();
    json.hotels[0].roomTypes[0].maxOccupancy = 0;
    json.hotels[0].roomTypes[1].maxAdults = 0;
    assert.deepEqual(problemsOf(json), [
      'hotels/0/roomTypes/0/maxOccupancy: must be >= 1',
      'hotels/0/roomTypes/1/maxAdults: must be >= 1',
    ]);
  });
});

describe('parseCatalog: cross-references', () => {
  it('rejects duplicate ids and tax codes', () => {
    const json = catalogue();
    const hotel = json.hotels[0];
    hotel.roomTypes.push({ ...hotel.roomTypes[0] });
    hotel.ratePlans.push({ ...hotel.ratePlans[0] });
    hotel.services = [
      { id: 'parking', name: 'Parking', pricing: 'per_night', amount: 2000 },
      { id: 'parking', name: 'Garage', pricing: 'per_night', amount: 3000 },
    ];
    hotel.taxes = [
      { code: 'vat', name: 'VAT', type: 'percent_included', rate: 10 },
      { code: 'vat', name: 'VAT', type: 'per_stay', amount: 100 },
    ];
    json.hotels.push({ ...catalogue().hotels[0] });
    assert.deepEqual(problemsOf(json), [
      'hotels/1/id: duplicate hotel id "harbour-view"',
      'hotels/0/roomTypes/2/id: duplicate room type id "double"',
      'hotels/0/ratePlans/1/id: duplicate rate plan id "flex"',
      'hotels/0/services/1/id: duplicate service id "parking"',
      'hotels/0/taxes/1/code: duplicate tax code "vat"',
    ]);
  });

  it('rejects a room number listed twice in a hotel, and keeps the listed ones', () => {
    const json = catalogue();
    const hotel = json.hotels[0];
    hotel.roomTypes[0].roomNumbers = ['101', '102'];
    hotel.roomTypes.push({ ...hotel.roomTypes[0], id: 'twin', name: 'Twin', roomNumbers: ['201', '102'] });
    assert.deepEqual(problemsOf(json), ['hotels/0/roomTypes/2/roomNumbers/1: duplicate room number "102"']);
    hotel.roomTypes[2].roomNumbers = ['201'];
    assert.deepEqual(parseCatalog(json).hotels[0]?.roomTypes[0]?.roomNumbers, ['101', '102']);
  });

  it('rejects prices and season prices for unknown room types', () => {
    const json = catalogue();
    const plan = json.hotels[0].ratePlans[0];
    plan.prices.penthouse = { base: 90000 };
    plan.seasons = [
      { from: '2027-07-01', to: '2027-08-31', prices: { double: { base: 16000 }, loft: { base: 1 } } },
    ];
    assert.deepEqual(problemsOf(json), [
      'hotels/0/ratePlans/0/prices/penthouse: unknown room type "penthouse"',
      'hotels/0/ratePlans/0/seasons/0/prices/loft: unknown room type "loft"',
    ]);
  });

  it('rejects restrictions naming unknown room types or rate plans', () => {
    const json = catalogue();
    json.hotels[0].restrictions = [
      {
        from: '2027-02-10',
        to: '2027-02-12',
        stopSell: true,
        roomTypes: ['double', 'dbl'],
        ratePlans: ['flexi'],
      },
    ];
    assert.deepEqual(problemsOf(json), [
      'hotels/0/restrictions/0/roomTypes/1: unknown room type "dbl"',
      'hotels/0/restrictions/0/ratePlans/0: unknown rate plan "flexi"',
    ]);
  });

  it('rejects periods that end before they start and a minimum stay above the maximum', () => {
    const json = catalogue();
    json.hotels[0].ratePlans[0].seasons = [{ from: '2027-08-31', to: '2027-07-01', prices: {} }];
    json.hotels[0].restrictions = [
      { from: '2027-05-02', to: '2027-05-01', closedToArrival: true },
      { from: '2027-05-01', to: '2027-05-01', minStay: 4, maxStay: 3 },
      { from: '2027-05-01', to: '2027-05-01', minStay: 3, maxStay: 3 },
    ];
    assert.deepEqual(problemsOf(json), [
      'hotels/0/ratePlans/0/seasons/0/to: must not be before from (2027-08-31)',
      'hotels/0/restrictions/0/to: must not be before from (2027-05-02)',
      'hotels/0/restrictions/1/maxStay: must be >= minStay (4)',
    ]);
  });

  it('rejects a time zone that is not an IANA zone', () => {
    const json = catalogue();
    json.hotels[0].timezone = 'Europe/Atlantis';
    assert.deepEqual(problemsOf(json), ['hotels/0/timezone: unknown IANA time zone "Europe/Atlantis"']);
    json.hotels[0].timezone = 'America/New_York';
    assert.doesNotThrow(() => parseCatalog(json));
  });
});

describe('parseCatalog: warnings', () => {
  it('ignores unknown properties, one warning each, wherever they are', () => {
    const json = catalogue();
    const hotel = json.hotels[0];
    Object.assign(json, { version: 2 });
    Object.assign(hotel, { stars: 4 });
    Object.assign(hotel.roomTypes[0], { colour: 'blue' });
    Object.assign(hotel.ratePlans[0].prices.suite, { note: 'sea view' });
    hotel.taxes = [{ code: 'vat', name: 'VAT', type: 'percent_included', rate: 10, legal: 'art. 18' }];
    const { hotels, warnings } = parseCatalog(json);
    // In document order: `stars`, `taxes` and `version` were added last to their objects.
    assert.deepEqual(warnings, [
      'hotels/0/roomTypes/0/colour: is not a known field, ignored',
      'hotels/0/ratePlans/0/prices/suite/note: is not a known field, ignored',
      'hotels/0/stars: is not a known field, ignored',
      'hotels/0/taxes/0/legal: is not a known field, ignored',
      'version: is not a known field, ignored',
    ]);
    assert.equal('colour' in (hotels[0]?.roomTypes[0] ?? {}), false);
    assert.equal('stars' in (hotels[0] ?? {}), false);
    assert.deepEqual(hotels[0]?.taxes, [{ code: 'vat', name: 'VAT', type: 'percent_included', rate: 10 }]);
  });

  it('warns about a season price for a room type the plan does not sell', () => {
    const json = catalogue();
    delete json.hotels[0].ratePlans[0].prices.suite;
    json.hotels[0].ratePlans[0].seasons = [
      { from: '2027-07-01', to: '2027-08-31', prices: { double: { base: 16000 }, suite: { base: 30000 } } },
    ];
    assert.deepEqual(parseCatalog(json).warnings, [
      'hotels/0/ratePlans/0/seasons/0/prices/suite: room type not priced by this rate plan, ignored',
    ]);
  });
});

describe('parseCatalog: what goes out in e-mails and feeds (issue 32, item 10)', () => {
  const NAME_RULE = TEXT_PATTERN_MESSAGES[NAME_CHARACTERS_PATTERN];

  it('refuses a line break or control character in any name, naming the field', () => {
    const json = catalogue();
    json.hotels[0].name = 'Harbour View\r\nX-Injected: yes';
    json.hotels[0].roomTypes[0].name = { en: 'Double\nRoom' };
    json.hotels[0].ratePlans[0].name = 'Flexible\u0007';
    assert.deepEqual(problemsOf(json), [
      `hotels/0/name: ${NAME_RULE}`,
      `hotels/0/roomTypes/0/name/en: ${NAME_RULE}`,
      `hotels/0/ratePlans/0/name: ${NAME_RULE}`,
    ]);
  });

  it('refuses a hotel e-mail that is a list or more than one address, naming the field', () => {
    for (const email of [
      'a@x.example,b@y.example',
      'a@x.example; b@y.example',
      'Desk <a@x.example>',
      'a,b@x.example',
    ]) {
      const json = catalogue();
      json.hotels[0].email = email;
      assert.deepEqual(
        problemsOf(json),
        ['hotels/0/email: must be one e-mail address (local@domain), not a list nor a name with an address'],
        email,
      );
    }
    const json = catalogue();
    json.hotels[0].email = 'stay+desk@harbour-view.example';
    assert.equal(parseCatalog(json).hotels[0]?.email, 'stay+desk@harbour-view.example');
  });

  it('takes maxUnpaidNights (1–365), 30 when absent', () => {
    assert.equal(parseCatalog(catalogue()).hotels[0]?.maxUnpaidNights, 30);
    const json = catalogue();
    json.hotels[0].maxUnpaidNights = 14;
    assert.equal(parseCatalog(json).hotels[0]?.maxUnpaidNights, 14);
    json.hotels[0].maxUnpaidNights = 0;
    assert.deepEqual(problemsOf(json), ['hotels/0/maxUnpaidNights: must be >= 1']);
  });
});
