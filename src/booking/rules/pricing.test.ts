import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ratePlan } from '../../catalog/catalog.fixtures.ts';
import { assertConsistent, brief, eur, hotel, roomLines, stay } from './pricing.fixtures.ts';
import { priceStay } from './pricing.ts';

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
