import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bareHotel, nonrefPlan, ratePlan } from '../../catalog/catalog.fixtures.ts';
import type { Hotel, RestrictionDef } from '../../catalog/catalog.schema.ts';
import { addDays } from '../../dates/dates.ts';
import { findRestriction, type RestrictionQuery } from './restrictions.ts';

function hotel(restrictions: RestrictionDef[], maxDaysBeforeArrival: number | null = 500): Hotel {
  return bareHotel({ restrictions, maxDaysBeforeArrival });
}

function query(overrides: Partial<RestrictionQuery> = {}): RestrictionQuery {
  return {
    roomTypeId: 'double',
    ratePlanId: 'flex',
    checkIn: '2027-02-08',
    checkOut: '2027-02-11',
    today: '2026-11-22',
    ...overrides,
  };
}

const stopSell: RestrictionDef = { from: '2027-02-10', to: '2027-02-12', stopSell: true };

describe('findRestriction: stop sell', () => {
  it('forbids a stay with any covered night and names those nights', () => {
    const v = findRestriction(hotel([stopSell]), query({ checkOut: '2027-02-12' }));
    assert.deepEqual(v, {
      rule: 'stop_sell',
      message: 'Not for sale on the nights of 2027-02-10 and 2027-02-11.',
      dates: ['2027-02-10', '2027-02-11'],
      from: '2027-02-10',
      to: '2027-02-12',
    });
  });

  it('gathers the covered nights of several stop-sells', () => {
    const other: RestrictionDef = { from: '2027-02-15', to: '2027-02-15', stopSell: true };
    const v = findRestriction(
      hotel([other, stopSell]),
      query({ checkIn: '2027-02-12', checkOut: '2027-02-17' }),
    );
    assert.deepEqual(v?.dates, ['2027-02-12', '2027-02-15']);
    assert.equal(v?.message, 'Not for sale on the nights of 2027-02-12 and 2027-02-15.');
    assert.deepEqual([v?.from, v?.to], ['2027-02-15', '2027-02-15']);
  });

  it('allows leaving on the first stopped day and arriving the day after the last', () => {
    assert.equal(
      findRestriction(hotel([stopSell]), query({ checkIn: '2027-02-08', checkOut: '2027-02-10' })),
      null,
    );
    assert.equal(
      findRestriction(hotel([stopSell]), query({ checkIn: '2027-02-13', checkOut: '2027-02-15' })),
      null,
    );
  });

  it('names a single night in the singular', () => {
    const v = findRestriction(hotel([stopSell]), query({ checkIn: '2027-02-12', checkOut: '2027-02-14' }));
    assert.equal(v?.message, 'Not for sale on the night of 2027-02-12.');
  });

  it('ignores a restriction flag set to false', () => {
    assert.equal(findRestriction(hotel([{ ...stopSell, stopSell: false }]), query()), null);
  });
});

describe('findRestriction: scope', () => {
  it('applies to the listed room types and rate plans only', () => {
    const scoped: RestrictionDef = { ...stopSell, roomTypes: ['double', 'suite'], ratePlans: ['nonref'] };
    assert.equal(findRestriction(hotel([scoped]), query({ ratePlanId: 'flex' })), null);
    assert.equal(
      findRestriction(hotel([scoped]), query({ roomTypeId: 'single', ratePlanId: 'nonref' })),
      null,
    );
    assert.equal(findRestriction(hotel([scoped]), query({ ratePlanId: 'nonref' }))?.rule, 'stop_sell');
    assert.equal(
      findRestriction(hotel([scoped]), query({ roomTypeId: 'suite', ratePlanId: 'nonref' }))?.rule,
      'stop_sell',
    );
  });

  it('applies to everything when the lists are absent', () => {
    assert.equal(
      findRestriction(hotel([stopSell]), query({ roomTypeId: 'any', ratePlanId: 'plan' }))?.rule,
      'stop_sell',
    );
  });
});

describe('findRestriction: closed to arrival and departure', () => {
  const cta: RestrictionDef = { from: '2027-05-01', to: '2027-05-01', closedToArrival: true };
  const ctd: RestrictionDef = { from: '2027-05-01', to: '2027-05-03', closedToDeparture: true };

  it('forbids arriving on a covered date only', () => {
    assert.deepEqual(
      findRestriction(hotel([cta]), query({ checkIn: '2027-05-01', checkOut: '2027-05-03' })),
      {
        rule: 'closed_to_arrival',
        message: 'Arrival is not possible on 2027-05-01.',
        dates: ['2027-05-01'],
        from: '2027-05-01',
        to: '2027-05-01',
      },
    );
    assert.equal(
      findRestriction(hotel([cta]), query({ checkIn: '2027-04-30', checkOut: '2027-05-03' })),
      null,
    );
  });

  it('forbids leaving on a covered date only', () => {
    assert.deepEqual(
      findRestriction(hotel([ctd]), query({ checkIn: '2027-04-29', checkOut: '2027-05-02' })),
      {
        rule: 'closed_to_departure',
        message: 'Departure is not possible on 2027-05-02.',
        dates: ['2027-05-02'],
        from: '2027-05-01',
        to: '2027-05-03',
      },
    );
    assert.equal(
      findRestriction(hotel([ctd]), query({ checkIn: '2027-05-02', checkOut: '2027-05-04' })),
      null,
    );
  });
});

describe('findRestriction: minimum and maximum stay', () => {
  const newYear: RestrictionDef = { from: '2027-12-30', to: '2027-12-31', minStay: 3 };

  it('applies a minimum stay to arrivals on covered dates', () => {
    assert.deepEqual(
      findRestriction(hotel([newYear]), query({ checkIn: '2027-12-30', checkOut: '2028-01-01' })),
      {
        rule: 'min_stay',
        message: 'Minimum stay is 3 nights for arrivals from 2027-12-30 to 2027-12-31.',
        dates: ['2027-12-30'],
        from: '2027-12-30',
        to: '2027-12-31',
        minStay: 3,
      },
    );
    assert.equal(
      findRestriction(hotel([newYear]), query({ checkIn: '2027-12-30', checkOut: '2028-01-02' })),
      null,
    );
  });

  it('does not apply a minimum stay to a stay that only passes through the period', () => {
    assert.equal(
      findRestriction(hotel([newYear]), query({ checkIn: '2027-12-29', checkOut: '2027-12-31' })),
      null,
    );
  });

  it('takes the strictest of several minimum stays', () => {
    const weekly: RestrictionDef = { from: '2027-12-31', to: '2027-12-31', minStay: 5 };
    const v = findRestriction(
      hotel([newYear, weekly]),
      query({ checkIn: '2027-12-31', checkOut: '2028-01-04' }),
    );
    assert.equal(v?.minStay, 5);
    assert.equal(v?.message, 'Minimum stay is 5 nights for arrivals on 2027-12-31.');
  });

  it('applies a maximum stay to arrivals on covered dates, the strictest first', () => {
    const summer: RestrictionDef = { from: '2027-07-01', to: '2027-08-31', maxStay: 14 };
    const peak: RestrictionDef = { from: '2027-08-01', to: '2027-08-15', maxStay: 7 };
    const v = findRestriction(
      hotel([summer, peak]),
      query({ checkIn: '2027-08-10', checkOut: '2027-08-18' }),
    );
    assert.deepEqual(v, {
      rule: 'max_stay',
      message: 'Maximum stay is 7 nights for arrivals from 2027-08-01 to 2027-08-15.',
      dates: ['2027-08-10'],
      from: '2027-08-01',
      to: '2027-08-15',
      maxStay: 7,
    });
    assert.equal(
      findRestriction(hotel([summer, peak]), query({ checkIn: '2027-08-10', checkOut: '2027-08-17' })),
      null,
    );
    assert.equal(
      findRestriction(hotel([summer]), query({ checkIn: '2027-06-30', checkOut: '2027-07-31' })),
      null,
    );
  });

  it('says "1 night" in the singular', () => {
    const v = findRestriction(
      hotel([{ from: '2027-03-01', to: '2027-03-01', maxStay: 1 }]),
      query({ checkIn: '2027-03-01', checkOut: '2027-03-03' }),
    );
    assert.equal(v?.message, 'Maximum stay is 1 night for arrivals on 2027-03-01.');
  });
});

describe('findRestriction: booking window', () => {
  it('refuses an arrival more than maxDaysBeforeArrival days after today', () => {
    const h = hotel([], 500);
    assert.equal(findRestriction(h, query({ checkIn: '2028-04-05', checkOut: '2028-04-06' })), null);
    assert.deepEqual(findRestriction(h, query({ checkIn: '2028-04-06', checkOut: '2028-04-07' })), {
      rule: 'booking_window',
      message: 'Bookings open 500 days before arrival; the latest arrival bookable today is 2028-04-05.',
      dates: ['2028-04-06'],
      maxDaysBeforeArrival: 500,
      latestArrival: '2028-04-05',
    });
  });

  it('has no limit when maxDaysBeforeArrival is null', () => {
    assert.equal(
      findRestriction(hotel([], null), query({ checkIn: '2035-01-01', checkOut: '2035-01-02' })),
      null,
    );
  });

  it('with 0 days allows only arrivals today', () => {
    const h = hotel([], 0);
    assert.equal(findRestriction(h, query({ checkIn: '2026-11-22', checkOut: '2026-11-23' })), null);
    assert.equal(
      findRestriction(h, query({ checkIn: '2026-11-23', checkOut: '2026-11-24' }))?.rule,
      'booking_window',
    );
  });
});

describe('findRestriction: unpaid stay', () => {
  const plans = (maxUnpaidNights?: number) =>
    bareHotel({ ratePlans: [ratePlan(), nonrefPlan()], ...(maxUnpaidNights ? { maxUnpaidNights } : {}) });
  const stay = (nights: number, ratePlanId = 'flex') =>
    query({ ratePlanId, checkIn: '2027-02-01', checkOut: addDays('2027-02-01', nights) });

  it('limits a plan that takes no payment at booking to 30 nights by default', () => {
    assert.equal(findRestriction(plans(), stay(30)), null);
    assert.deepEqual(findRestriction(plans(), stay(31)), {
      rule: 'unpaid_stay',
      message:
        'Stays of more than 30 nights need a rate paid at booking; the Flexible rate is paid at the hotel.',
      dates: ['2027-02-01'],
      maxUnpaidNights: 30,
    });
  });

  it('takes the hotel’s own limit, and never limits a prepaid plan', () => {
    assert.equal(findRestriction(plans(3), stay(3)), null);
    assert.equal(findRestriction(plans(3), stay(4))?.maxUnpaidNights, 3);
    assert.equal(findRestriction(plans(3), stay(365, 'nonref')), null);
  });
});

describe('findRestriction: precedence', () => {
  // One stay (arrive 2027-12-30, leave 2028-01-01, 2 nights) that breaks every rule at once.
  const all: RestrictionDef[] = [
    { from: '2027-12-30', to: '2027-12-30', maxStay: 1 },
    { from: '2027-12-30', to: '2027-12-30', minStay: 3 },
    { from: '2028-01-01', to: '2028-01-01', closedToDeparture: true },
    { from: '2027-12-30', to: '2027-12-30', closedToArrival: true },
    { from: '2027-12-31', to: '2027-12-31', stopSell: true },
  ];
  const breaking = query({ checkIn: '2027-12-30', checkOut: '2028-01-01', today: '2026-11-22' });

  it('reports stop_sell, closed_to_arrival, closed_to_departure, min_stay, max_stay, booking_window in turn', () => {
    const order = [
      'stop_sell',
      'closed_to_arrival',
      'closed_to_departure',
      'min_stay',
      'max_stay',
      'booking_window',
    ];
    const h = hotel([...all], 30);
    for (const expected of order) {
      const v = findRestriction(h, breaking);
      assert.equal(v?.rule, expected);
      // Lift the rule just reported to reveal the next one.
      if (expected === 'booking_window') h.maxDaysBeforeArrival = null;
      else h.restrictions.pop();
    }
    assert.equal(findRestriction(h, breaking), null);
  });
});
