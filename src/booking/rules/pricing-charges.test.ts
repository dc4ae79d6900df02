import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ratePlan } from '../../catalog/catalog.fixtures.ts';
import { addDays } from '../../dates/dates.ts';
import { sellsRoomType } from '../../rate-plans/priced-hotel.ts';
import { assertConsistent, eur, hotel, stay } from './pricing.fixtures.ts';
import { priceStay } from './pricing.ts';
import { includedTaxAmount } from './tax-amount.ts';

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
