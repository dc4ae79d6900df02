import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addDays } from '../../calendar/dates.ts';
import type { Hotel, RatePlan } from '../../catalog/catalog.schema.ts';
import { type PriceLine, priceStay, type StayPrice, type StayToPrice, sellsRoomType } from './pricing.ts';
import { includedTaxAmount } from './tax-amount.ts';

function ratePlan(overrides: Partial<RatePlan> = {}): RatePlan {
  return {
    id: 'flex',
    name: 'Flexible',
    refundable: true,
    prepayment: 'none',
    freeCancellationDays: 2,
    penaltyNights: 1,
    prices: { double: { base: 12000, includedAdults: 2, extraAdult: 3000, child: 1500 } },
    seasons: [],
    ...overrides,
  };
}

/** The API.md section 6 example hotel, trimmed to what each test needs. */
function hotel(overrides: Partial<Hotel> = {}): Hotel {
  return {
    id: 'harbour-view',
    name: 'Harbour View',
    timezone: 'Europe/Lisbon',
    currency: 'EUR',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    maxDaysBeforeArrival: 500,
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 10, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'family', name: 'Family Room', count: 4, maxAdults: 4, maxChildren: 3, maxOccupancy: 6 },
    ],
    ratePlans: [
      ratePlan(),
      ratePlan({ id: 'nonref', name: 'Non-refundable', refundable: false, prepayment: 'full' }),
    ],
    services: [
      { id: 'breakfast', name: 'Breakfast', pricing: 'per_guest_per_night', amount: 1500 },
      { id: 'parking', name: 'Parking', pricing: 'per_night', amount: 2000 },
      { id: 'cot', name: 'Baby cot', pricing: 'per_room_per_night', amount: 500 },
      { id: 'late-checkout', name: 'Late check-out', pricing: 'per_stay', amount: 3000 },
    ],
    taxes: [
      { code: 'city_tax', name: 'City tax', type: 'per_adult_per_night', amount: 200 },
      { code: 'vat', name: 'VAT', type: 'percent_included', rate: 10 },
    ],
    restrictions: [],
    ...overrides,
  };
}

function stay(overrides: Partial<StayToPrice> = {}): StayToPrice {
  return {
    roomTypeId: 'double',
    ratePlanId: 'flex',
    checkIn: '2027-03-01',
    checkOut: '2027-03-04',
    adults: 2,
    children: [],
    rooms: 1,
    services: [],
    ...overrides,
  };
}

const eur = (amount: number) => ({ amount, currency: 'EUR' });
const roomLines = (price: StayPrice) => price.lines.filter((l) => l.type === 'room');
const brief = (lines: PriceLine[]) => lines.map((l) => [l.date ?? l.code, l.quantity, l.unitAmount.amount]);

function assertConsistent(price: StayPrice): void {
  for (const line of price.lines) assert.equal(line.amount.amount, line.unitAmount.amount * line.quantity);
  const sum = price.lines.reduce((total, l) => total + l.amount.amount, 0);
  assert.equal(price.total.amount, sum);
  assert.equal(
    price.total.amount,
    price.roomsTotal.amount + price.servicesTotal.amount + price.addedTaxesTotal.amount,
  );
  const nightlySum = price.nightly.reduce((total, n) => total + n.amount.amount, 0);
  assert.equal(nightlySum, price.roomsTotal.amount);
}

describe('priceStay: the API.md example', () => {
  it('prices a double room for 2 adults and a 7-year-old, 3 nights with breakfast', () => {
    const price = priceStay(hotel(), stay({ children: [7], services: ['breakfast'] }));
    assertConsistent(price);
    assert.deepEqual(price.nightly, [
      { date: '2027-03-01', amount: eur(13500) },
      { date: '2027-03-02', amount: eur(13500) },
      { date: '2027-03-03', amount: eur(13500) },
    ]);
    assert.deepEqual(price.lines, [
      ...['2027-03-01', '2027-03-02', '2027-03-03'].map((date) => ({
        type: 'room',
        code: 'double',
        name: 'Double Room',
        date,
        quantity: 1,
        unitAmount: eur(13500),
        amount: eur(13500),
      })),
      {
        type: 'service',
        code: 'breakfast',
        name: 'Breakfast',
        quantity: 9,
        unitAmount: eur(1500),
        amount: eur(13500),
      },
      {
        type: 'tax',
        code: 'city_tax',
        name: 'City tax',
        quantity: 6,
        unitAmount: eur(200),
        amount: eur(1200),
      },
    ]);
    assert.deepEqual(price.roomsTotal, eur(40500));
    assert.deepEqual(price.servicesTotal, eur(13500));
    assert.deepEqual(price.addedTaxesTotal, eur(1200));
    assert.deepEqual(price.total, eur(55200));
    assert.deepEqual(price.includedTaxes, [{ code: 'vat', name: 'VAT', amount: eur(4909) }]);
    assert.deepEqual(price.cancellationPolicy, {
      refundable: true,
      freeCancellationUntil: '2027-02-27T00:00:00Z',
      penalty: eur(13500),
    });
  });

  it('leaves services and taxes out of lines that have no date', () => {
    const price = priceStay(hotel(), stay({ services: ['breakfast'] }));
    for (const line of price.lines) assert.equal('date' in line, line.type === 'room');
  });
});

describe('priceStay: room price per night', () => {
  it('charges extraAdult for each adult above includedAdults', () => {
    const h = hotel({
      ratePlans: [ratePlan({ prices: { family: { base: 15000, includedAdults: 2, extraAdult: 2500 } } })],
    });
    const price = priceStay(h, stay({ roomTypeId: 'family', adults: 4, checkOut: '2027-03-02' }));
    assert.deepEqual(brief(roomLines(price)), [['2027-03-01', 1, 15000 + 2 * 2500]]);
    const fewer = priceStay(h, stay({ roomTypeId: 'family', adults: 1, checkOut: '2027-03-02' }));
    assert.deepEqual(brief(roomLines(fewer)), [['2027-03-01', 1, 15000]]);
  });

  it('charges child for every child whatever the age', () => {
    const h = hotel({ ratePlans: [ratePlan({ prices: { family: { base: 15000, child: 1000 } } })] });
    const price = priceStay(
      h,
      stay({ roomTypeId: 'family', adults: 2, children: [0, 9, 17], checkOut: '2027-03-02' }),
    );
    assert.deepEqual(brief(roomLines(price)), [['2027-03-01', 1, 18000]]);
  });

  it('reads absent includedAdults as the room maxAdults, absent extraAdult and child as 0', () => {
    const h = hotel({ ratePlans: [ratePlan({ prices: { family: { base: 15000 } } })] });
    const price = priceStay(
      h,
      stay({ roomTypeId: 'family', adults: 4, children: [3, 5], checkOut: '2027-03-02' }),
    );
    assert.deepEqual(brief(roomLines(price)), [['2027-03-01', 1, 15000]]);
  });

  it('includes every adult when only includedAdults is absent', () => {
    const h = hotel({ ratePlans: [ratePlan({ prices: { family: { base: 15000, extraAdult: 2500 } } })] });
    const price = priceStay(h, stay({ roomTypeId: 'family', adults: 4, checkOut: '2027-03-02' }));
    assert.equal(price.roomsTotal.amount, 15000);
  });
});

describe('priceStay: seasons', () => {
  const summer = { from: '2027-07-01', to: '2027-07-02', prices: { double: { base: 16000 } } };

  it('applies a season to the nights it covers, inclusive of both ends, across a mid-stay change', () => {
    const h = hotel({ ratePlans: [ratePlan({ seasons: [summer] })] });
    const price = priceStay(h, stay({ checkIn: '2027-06-30', checkOut: '2027-07-04', children: [4] }));
    assertConsistent(price);
    assert.deepEqual(
      price.nightly.map((n) => [n.date, n.amount.amount]),
      [
        ['2027-06-30', 13500],
        ['2027-07-01', 17500],
        ['2027-07-02', 17500],
        ['2027-07-03', 13500],
      ],
    );
  });

  it('does not price the check-out day even when a season starts on it', () => {
    const h = hotel({ ratePlans: [ratePlan({ seasons: [summer] })] });
    const price = priceStay(h, stay({ checkIn: '2027-06-29', checkOut: '2027-07-01' }));
    assert.equal(price.roomsTotal.amount, 2 * 12000);
  });

  it('replaces only the fields the season names', () => {
    const season = {
      from: '2027-03-01',
      to: '2027-03-31',
      prices: { double: { child: 0, extraAdult: 500 } },
    };
    const h = hotel({ ratePlans: [ratePlan({ seasons: [season] })] });
    const price = priceStay(h, stay({ children: [5], checkOut: '2027-03-02' }));
    assert.equal(price.roomsTotal.amount, 12000);
  });

  it('can name includedAdults, which then drives the extra-adult charge', () => {
    const season = { from: '2027-03-01', to: '2027-03-31', prices: { family: { includedAdults: 1 } } };
    const prices = { family: { base: 15000, includedAdults: 2, extraAdult: 2500 } };
    const h = hotel({ ratePlans: [ratePlan({ prices, seasons: [season] })] });
    const price = priceStay(h, stay({ roomTypeId: 'family', adults: 3, checkOut: '2027-03-02' }));
    assert.equal(price.roomsTotal.amount, 15000 + 2 * 2500);
  });

  it('ignores a season that prices only other room types', () => {
    const season = { from: '2027-03-01', to: '2027-03-31', prices: { family: { base: 1 } } };
    const h = hotel({ ratePlans: [ratePlan({ seasons: [season] })] });
    assert.equal(priceStay(h, stay({ checkOut: '2027-03-02' })).roomsTotal.amount, 12000);
  });

  it('lets the last listed season win where seasons overlap, field by field', () => {
    const broad = { from: '2027-07-01', to: '2027-08-31', prices: { double: { base: 16000, child: 2000 } } };
    const peak = { from: '2027-08-14', to: '2027-08-15', prices: { double: { base: 20000 } } };
    const h = hotel({ ratePlans: [ratePlan({ seasons: [broad, peak] })] });
    const price = priceStay(h, stay({ checkIn: '2027-08-13', checkOut: '2027-08-17', children: [6] }));
    assert.deepEqual(
      price.nightly.map((n) => n.amount.amount),
      [18000, 22000, 22000, 18000],
    );
    const reversed = hotel({ ratePlans: [ratePlan({ seasons: [peak, broad] })] });
    const shadowed = priceStay(
      reversed,
      stay({ checkIn: '2027-08-13', checkOut: '2027-08-17', children: [6] }),
    );
    assert.deepEqual(
      shadowed.nightly.map((n) => n.amount.amount),
      [18000, 18000, 18000, 18000],
    );
  });
});

describe('priceStay: several rooms', () => {
  const prices = { family: { base: 10000, includedAdults: 1, extraAdult: 2000, child: 1000 } };

  it('gives rooms with different prices separate lines, dearest first, night by night', () => {
    const season = { from: '2027-03-02', to: '2027-03-02', prices: { family: { base: 11000 } } };
    const h = hotel({ ratePlans: [ratePlan({ prices, seasons: [season] })] });
    // 3 adults and 1 child in 2 rooms: [2 adults + 1 child, 1 adult].
    const price = priceStay(h, stay({ roomTypeId: 'family', adults: 3, children: [8], rooms: 2 }));
    assertConsistent(price);
    assert.deepEqual(brief(roomLines(price)), [
      ['2027-03-01', 1, 13000],
      ['2027-03-01', 1, 10000],
      ['2027-03-02', 1, 14000],
      ['2027-03-02', 1, 11000],
      ['2027-03-03', 1, 13000],
      ['2027-03-03', 1, 10000],
    ]);
    assert.deepEqual(
      price.nightly.map((n) => n.amount.amount),
      [23000, 25000, 23000],
    );
  });

  it('lets rooms with the same price share a line', () => {
    const h = hotel({ ratePlans: [ratePlan({ prices })] });
    // 5 adults in 3 rooms: [2, 2, 1].
    const price = priceStay(h, stay({ roomTypeId: 'family', adults: 5, rooms: 3, checkOut: '2027-03-03' }));
    assertConsistent(price);
    assert.deepEqual(brief(roomLines(price)), [
      ['2027-03-01', 2, 12000],
      ['2027-03-01', 1, 10000],
      ['2027-03-02', 2, 12000],
      ['2027-03-02', 1, 10000],
    ]);
    for (const line of roomLines(price)) assert.deepEqual([line.code, line.name], ['family', 'Family Room']);
  });
});

describe('priceStay: services', () => {
  const party = { adults: 3, children: [2, 6], rooms: 2, roomTypeId: 'family', checkOut: '2027-03-05' };
  const h = hotel({ ratePlans: [ratePlan({ prices: { family: { base: 15000 } } })] });

  it('prices each kind of service by its quantity', () => {
    const price = priceStay(
      h,
      stay({ ...party, services: ['late-checkout', 'parking', 'cot', 'breakfast'] }),
    );
    assertConsistent(price);
    const services = price.lines.filter((l) => l.type === 'service');
    assert.deepEqual(
      services.map((l) => [l.code, l.name, l.quantity, l.unitAmount.amount, l.amount.amount]),
      [
        ['late-checkout', 'Late check-out', 1, 3000, 3000],
        ['parking', 'Parking', 4, 2000, 8000],
        ['cot', 'Baby cot', 8, 500, 4000],
        ['breakfast', 'Breakfast', 20, 1500, 30000],
      ],
    );
    assert.deepEqual(price.servicesTotal, eur(45000));
  });

  it('keeps the requested order and counts a repeated service once', () => {
    const price = priceStay(h, stay({ ...party, services: ['parking', 'breakfast', 'parking'] }));
    assert.deepEqual(
      price.lines.filter((l) => l.type === 'service').map((l) => [l.code, l.quantity]),
      [
        ['parking', 4],
        ['breakfast', 20],
      ],
    );
  });

  it('throws on a service the hotel does not offer', () => {
    assert.throws(() => priceStay(h, stay({ ...party, services: ['spa'] })), /spa/);
  });
});

describe('priceStay: taxes', () => {
  it('adds per-adult-per-night and per-stay taxes as lines, in catalogue order, after services', () => {
    const h = hotel({
      taxes: [
        { code: 'city_tax', name: 'City tax', type: 'per_adult_per_night', amount: 200 },
        { code: 'resort_fee', name: 'Resort fee', type: 'per_stay', amount: 1000 },
      ],
    });
    const price = priceStay(h, stay({ children: [7], services: ['parking'] }));
    assertConsistent(price);
    assert.deepEqual(
      price.lines.slice(-3).map((l) => [l.type, l.code, l.quantity, l.unitAmount.amount]),
      [
        ['service', 'parking', 3, 2000],
        ['tax', 'city_tax', 6, 200],
        ['tax', 'resort_fee', 1, 1000],
      ],
    );
    assert.deepEqual(price.addedTaxesTotal, eur(2200));
    assert.deepEqual(price.includedTaxes, []);
  });

  it('counts only adults for a per-adult tax', () => {
    const price = priceStay(hotel(), stay({ roomTypeId: 'double', adults: 1, children: [3] }));
    assert.equal(price.lines.find((l) => l.code === 'city_tax')?.quantity, 3);
  });

  it('reports an included tax without adding it, on rooms plus services but not added taxes', () => {
    const h = hotel({
      taxes: [
        { code: 'city_tax', name: 'City tax', type: 'per_adult_per_night', amount: 10000 },
        { code: 'vat', name: 'VAT', type: 'percent_included', rate: 10 },
        { code: 'stamp', name: 'Stamp duty', type: 'percent_included', rate: 4 },
      ],
    });
    const price = priceStay(h, stay({ checkOut: '2027-03-02', services: ['late-checkout'] }));
    assert.equal(
      price.lines.some((l) => l.code === 'vat' || l.code === 'stamp'),
      false,
    );
    assert.deepEqual(price.total, eur(12000 + 3000 + 20000));
    assert.deepEqual(price.includedTaxes, [
      { code: 'vat', name: 'VAT', amount: eur(1364) },
      { code: 'stamp', name: 'Stamp duty', amount: eur(577) },
    ]);
  });

  it('rounds an included tax half up from the exact value', () => {
    assert.equal(includedTaxAmount(54000, 10), 4909);
    assert.equal(includedTaxAmount(3, 20), 1);
    assert.equal(includedTaxAmount(1, 100), 1);
    assert.equal(includedTaxAmount(0, 10), 0);
    // 64 × 2.4 / 102.4 is exactly 1.5, but in floating point it comes out as 1.4999999999999998.
    assert.equal(Math.round((64 * 2.4) / 102.4), 1);
    assert.equal(includedTaxAmount(64, 2.4), 2);
    assert.equal(includedTaxAmount(576, 2.4), 14);
    assert.equal(includedTaxAmount(66, 5.6), 4);
    assert.equal(includedTaxAmount(67, 7.2), 5);
    // Just below and above .5 still round the ordinary way.
    assert.equal(includedTaxAmount(65, 2.4), 2);
    assert.equal(includedTaxAmount(63, 2.4), 1);
  });

  it('stays exact for large amounts', () => {
    assert.equal(includedTaxAmount(999_999_999_999, 23), Math.round((999_999_999_999 * 23) / 123));
    assert.equal(includedTaxAmount(2 ** 53 - 1, 10), 818_836_295_885_545);
  });
});

describe('priceStay: cancellation policy', () => {
  it('charges the first penaltyNights nights of all rooms after the deadline', () => {
    const season = { from: '2027-03-02', to: '2027-03-02', prices: { double: { base: 20000 } } };
    const h = hotel({ ratePlans: [ratePlan({ penaltyNights: 2, seasons: [season] })] });
    const price = priceStay(h, stay({ rooms: 2, adults: 2 }));
    assert.deepEqual(price.cancellationPolicy.penalty, eur(2 * 12000 + 2 * 20000));
  });

  it('caps the penalty at the nights of the stay', () => {
    const h = hotel({ ratePlans: [ratePlan({ penaltyNights: 5 })], taxes: [] });
    const price = priceStay(h, stay({ services: ['parking'] }));
    assert.deepEqual(price.cancellationPolicy.penalty, eur(3 * 12000));
  });

  it('has no penalty when penaltyNights is 0', () => {
    const h = hotel({ ratePlans: [ratePlan({ penaltyNights: 0 })] });
    assert.deepEqual(priceStay(h, stay()).cancellationPolicy.penalty, eur(0));
  });

  it('makes a non-refundable plan cost its whole total', () => {
    const price = priceStay(hotel(), stay({ ratePlanId: 'nonref', services: ['breakfast'] }));
    assert.deepEqual(price.cancellationPolicy, {
      refundable: false,
      freeCancellationUntil: null,
      penalty: price.total,
    });
  });

  const deadline = (timezone: string, checkIn: string, freeCancellationDays: number) => {
    const h = hotel({ timezone, ratePlans: [ratePlan({ freeCancellationDays })] });
    return priceStay(h, stay({ checkIn, checkOut: addDays(checkIn, 1) })).cancellationPolicy
      .freeCancellationUntil;
  };

  it('sets the deadline at hotel midnight in Lisbon on each side of the March switch', () => {
    // Summer time starts 2027-03-28 at 01:00 UTC.
    assert.equal(deadline('Europe/Lisbon', '2027-03-29', 0), '2027-03-28T23:00:00Z');
    // Midnight on the switch day itself is still winter time.
    assert.equal(deadline('Europe/Lisbon', '2027-03-29', 1), '2027-03-28T00:00:00Z');
    assert.equal(deadline('Europe/Lisbon', '2027-03-29', 2), '2027-03-27T00:00:00Z');
  });

  it('sets the deadline at hotel midnight in Lisbon on each side of the October switch', () => {
    // Summer time ends 2027-10-31 at 01:00 UTC.
    assert.equal(deadline('Europe/Lisbon', '2027-11-01', 0), '2027-11-01T00:00:00Z');
    // Midnight on the switch day itself is still summer time.
    assert.equal(deadline('Europe/Lisbon', '2027-11-01', 1), '2027-10-30T23:00:00Z');
    assert.equal(deadline('Europe/Lisbon', '2027-11-01', 2), '2027-10-29T23:00:00Z');
  });

  it('sets the deadline at hotel midnight in New York on each side of both switches', () => {
    // Daylight time runs from 2027-03-14 to 2027-11-07, switching at 02:00 local.
    assert.equal(deadline('America/New_York', '2027-03-15', 0), '2027-03-15T04:00:00Z');
    assert.equal(deadline('America/New_York', '2027-03-15', 1), '2027-03-14T05:00:00Z');
    assert.equal(deadline('America/New_York', '2027-11-08', 0), '2027-11-08T05:00:00Z');
    assert.equal(deadline('America/New_York', '2027-11-08', 1), '2027-11-07T04:00:00Z');
  });

  it('counts freeCancellationDays in calendar days across a month end', () => {
    assert.equal(deadline('Europe/Lisbon', '2027-03-01', 2), '2027-02-27T00:00:00Z');
  });
});

describe('priceStay: guards', () => {
  it('tells whether a rate plan sells a room type', () => {
    assert.equal(sellsRoomType(ratePlan(), 'double'), true);
    assert.equal(sellsRoomType(ratePlan(), 'family'), false);
    assert.equal(sellsRoomType(ratePlan(), 'toString'), false);
  });

  it('throws when the rate plan does not price the room type', () => {
    assert.throws(() => priceStay(hotel(), stay({ roomTypeId: 'family' })), /does not price/);
  });

  it('throws on unknown ids', () => {
    assert.throws(() => priceStay(hotel(), stay({ roomTypeId: 'penthouse' })), /penthouse/);
    assert.throws(() => priceStay(hotel(), stay({ ratePlanId: 'promo' })), /promo/);
  });
});
