import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Occupancy, PlanPricing, RateDef } from '../catalog/rate-plan.model.ts';
import { BIGINT, NUMBER } from './exact-arithmetic.ts';
import { pricePlanStay } from './price-plan-stay.ts';
import { rtappRound } from './rounding.ts';

/** The specification's sample message (Rate1-4-HB, "Frangart Inn"), amounts in cents. */
const sample: PlanPricing = {
  per: 'person',
  unitNights: 1,
  meals: { breakfast: true, dinner: true },
  rates: [
    {
      roomTypeId: 'double',
      from: '2014-03-03',
      to: '2014-03-08',
      byGuests: [
        { guests: 1, amount: 10600 },
        { guests: 2, amount: 9600 },
      ],
      extraAdult: 7680,
      children: [
        { maxAge: 3, amount: 0 },
        { minAge: 3, maxAge: 6, amount: 3840 },
        { minAge: 6, maxAge: 10, amount: 4800 },
        { minAge: 10, maxAge: 16, amount: 6720 },
      ],
    },
  ],
  bookingRules: [{ from: '2014-03-03', to: '2014-04-17', minStay: 5, maxStay: 5 }],
  supplements: [
    {
      id: '0x539',
      charge: 'per_room_per_stay',
      mandatory: true,
      prices: [{ from: '2014-10-01', to: '2014-10-11', amount: 2000 }],
    },
  ],
  stayRules: { adultMinAge: 16 },
};
const double: Occupancy = { minOccupancy: 1, standardOccupancy: 2, maxOccupancy: 4, maxChildren: 2 };
const stay = (adults: number, children: number[], checkIn = '2014-03-03', checkOut = '2014-03-08') => ({
  roomTypeId: 'double',
  checkIn,
  checkOut,
  adults,
  children,
  bookingDate: '2014-01-01',
});
function total(plan: PlanPricing, occupancy: Occupancy, s: ReturnType<typeof stay>): number {
  const price = pricePlanStay(plan, occupancy, s);
  if (!price.ok) throw new Error(`refused: ${price.message}`);
  return price.total;
}

describe('pricing a stay under the sample rate plan (per person, HotelData 4.5)', () => {
  it('two adults pay the two-guest price each: 2 × 96 × 5 nights = 960.00', () => {
    assert.equal(total(sample, double, stay(2, [])), 96000);
  });
  it('one adult pays the one-guest price: 106 × 5 = 530.00', () => {
    assert.equal(total(sample, double, stay(1, [])), 53000);
  });
  it('a third adult pays the additional adult amount: (192 + 76.80) × 5 = 1344.00', () => {
    assert.equal(total(sample, double, stay(3, [])), 134400);
  });
  it('children pay by age band: (192 + 38.40 + 67.20) × 5 = 1488.00', () => {
    assert.equal(total(sample, double, stay(2, [4, 12])), 148800);
  });
  it('a child under 3 is free', () => {
    assert.equal(total(sample, double, stay(2, [1])), 96000);
  });
  it('a lone adult with a child: the child becomes a full payer (2 × 96 × 5)', () => {
    assert.equal(total(sample, double, stay(1, [8])), 96000);
  });
  it('per-night breakdown sums to the total', () => {
    const price = pricePlanStay(sample, double, stay(2, [4]));
    assert.ok(price.ok);
    assert.deepEqual(
      price.nights.map((n) => n.amount),
      [23040, 23040, 23040, 23040, 23040],
    );
    assert.equal(price.roomsTotal, price.total);
  });
  it('a stay shorter than the booking rule minimum is restricted (min_stay 5)', () => {
    const price = pricePlanStay(sample, double, stay(2, [], '2014-03-03', '2014-03-07'));
    assert.ok(!price.ok);
    assert.equal(price.reason, 'restricted');
    assert.equal(price.restriction?.rule, 'min_stay');
    assert.equal(price.restriction?.minStay, 5);
  });
  it('a night without a rate is no availability', () => {
    const price = pricePlanStay(sample, double, stay(2, [], '2014-03-05', '2014-03-10'));
    assert.ok(!price.ok);
    assert.equal(price.reason, 'unavailable');
  });
  it('a "child" of the adult age is refused as rtapp does (occupancy)', () => {
    const price = pricePlanStay(sample, double, stay(2, [16]));
    assert.ok(!price.ok);
    assert.equal(price.reason, 'occupancy');
  });
  it('a party above the maximum occupancy is refused', () => {
    const price = pricePlanStay(sample, double, stay(3, [5, 6]));
    assert.ok(!price.ok);
    assert.equal(price.reason, 'occupancy');
  });
});

const perRoom: PlanPricing = {
  per: 'room',
  rates: [
    {
      roomTypeId: 'double',
      byGuests: [
        { guests: 1, amount: 8000 },
        { guests: 2, amount: 10000 },
      ],
      children: [{ amount: 2500 }],
    },
  ],
};

describe('per room rates, supplements and offers', () => {
  const s = (checkIn: string, checkOut: string, adults = 2, children: number[] = []) => ({
    ...stay(adults, children, checkIn, checkOut),
    bookingDate: '2027-01-01',
  });
  it('a per-room rate does not multiply by guests', () => {
    assert.equal(total(perRoom, double, s('2027-03-01', '2027-03-04')), 30000);
    assert.equal(total(perRoom, double, s('2027-03-01', '2027-03-04', 1)), 24000);
  });
  it('7 nights for 6: the last night is free', () => {
    const plan = { ...perRoom, freeNights: { nightsRequired: 7, nightsDiscounted: 1 } };
    const price = pricePlanStay(plan, double, s('2027-03-01', '2027-03-08'));
    assert.ok(price.ok);
    assert.equal(price.total, 60000);
    assert.deepEqual(price.freeNights, ['2027-03-07']);
    assert.equal(total(plan, double, s('2027-03-01', '2027-03-07')), 60000);
    assert.equal(total(plan, double, s('2027-03-01', '2027-03-15')), 130000, 'once only without repeat');
  });
  it('a repeating 7-for-6 frees one night in every seven', () => {
    const plan = { ...perRoom, freeNights: { nightsRequired: 7, nightsDiscounted: 1, repeat: true } };
    assert.equal(total(plan, double, s('2027-03-01', '2027-03-15')), 120000);
    assert.equal(total(plan, double, s('2027-03-01', '2027-03-11')), 90000);
  });
  it('family offer: one child under 6 free when at least one is there', () => {
    const plan = { ...perRoom, familyOffer: { maxAge: 6, minChildren: 1, freeChildren: 1 } };
    const price = pricePlanStay(plan, double, s('2027-03-01', '2027-03-03', 2, [4, 5]));
    assert.ok(price.ok);
    assert.equal(price.total, 2 * (10000 + 2500));
    assert.equal(price.freeChildren, 1);
  });
  it('mandatory supplements: per stay once, per person per night by guests; optional ones are not in the total', () => {
    const plan: PlanPricing = {
      ...perRoom,
      supplements: [
        {
          id: 'cleaning',
          charge: 'per_stay',
          mandatory: true,
          prices: [{ from: '2027-01-01', to: '2027-12-31', amount: 3000 }],
        },
        {
          id: 'resort',
          charge: 'per_person_per_night',
          mandatory: true,
          prices: [{ from: '2027-01-01', to: '2027-12-31', amount: 150 }],
        },
        {
          id: 'dog',
          charge: 'per_night',
          mandatory: false,
          prices: [{ from: '2027-01-01', to: '2027-12-31', amount: 900 }],
        },
      ],
    };
    const price = pricePlanStay(plan, double, s('2027-03-01', '2027-03-04'));
    assert.ok(price.ok);
    assert.equal(price.total, 30000 + 3000 + 150 * 2 * 3);
    assert.deepEqual(price.supplements, [
      { id: 'cleaning', amount: 3000 },
      { id: 'resort', amount: 900 },
    ]);
    // the optional one is offered as an extra at its own price: 9 × 3 nights
    assert.deepEqual(price.extras, [{ id: 'dog', amount: 2700 }]);
  });
  it('an optional supplement is an extra only with a price on a night of the stay, on its weekdays', () => {
    const plan: PlanPricing = {
      ...perRoom,
      supplements: [
        {
          id: 'sauna',
          charge: 'per_person_per_stay',
          mandatory: false,
          days: ['sat', 'sun'],
          prices: [{ from: '2027-01-01', to: '2027-12-31', amount: 1200 }],
        },
        {
          id: 'ski',
          charge: 'per_item',
          mandatory: false,
          prices: [{ from: '2027-12-01', to: '2027-12-31', amount: 5000 }],
        },
      ],
    };
    // 2027-03-01 is a Monday: Mon–Wed nights, no weekend night
    const weekdays = pricePlanStay(plan, double, s('2027-03-01', '2027-03-04'));
    assert.ok(weekdays.ok);
    assert.deepEqual(weekdays.extras, []);
    // Fri–Mon: Sat and Sun nights of 3, per person per stay: 12 × 2 guests × 2/3
    const weekend = pricePlanStay(plan, double, s('2027-03-05', '2027-03-08'));
    assert.ok(weekend.ok);
    assert.deepEqual(weekend.extras, [{ id: 'sauna', amount: 1600 }]);
    assert.equal(weekend.total, 30000);
  });
  it('weekday rates price only their weekdays (of the night)', () => {
    const byDay = (days: RateDef['days'], amount: number): RateDef => ({
      roomTypeId: 'double',
      from: '2027-03-01',
      to: '2027-03-31',
      ...(days ? { days } : {}),
      byGuests: [{ guests: 2, amount }],
    });
    const plan: PlanPricing = {
      per: 'room',
      rates: [byDay(['mon', 'tue', 'wed', 'thu', 'sun'], 10000), byDay(['fri', 'sat'], 15000)],
    };
    // Thursday 4 March to Monday 8 March: Thu 100, Fri 150, Sat 150, Sun 100
    const price = pricePlanStay(plan, double, s('2027-03-04', '2027-03-08'));
    assert.ok(price.ok);
    assert.equal(price.total, 50000);
    assert.deepEqual(
      price.nights.map((n) => n.amount),
      [10000, 15000, 15000, 10000],
    );
    // without the weekend rate, Friday has no price
    const weekdaysOnly = pricePlanStay(
      { ...plan, rates: [byDay(['mon', 'tue', 'wed', 'thu', 'sun'], 10000)] },
      double,
      s('2027-03-04', '2027-03-06'),
    );
    assert.equal(weekdaysOnly.ok, false);
    assert.equal(weekdaysOnly.ok ? '' : weekdaysOnly.reason, 'unavailable');
  });
  it('a weekly rate (unitNights 7) charges its share for a shorter stay, rounded as rtapp', () => {
    const plan: PlanPricing = {
      per: 'room',
      unitNights: 7,
      rates: [{ roomTypeId: 'double', byGuests: [{ guests: 2, amount: 70000 }] }],
    };
    assert.equal(total(plan, double, s('2027-03-01', '2027-03-04')), 30000);
    const odd: PlanPricing = {
      ...plan,
      unitNights: 3,
      rates: [{ roomTypeId: 'double', byGuests: [{ guests: 2, amount: 10000 }] }],
    };
    assert.equal(total(odd, double, s('2027-03-01', '2027-03-02')), 3333);
  });
  it('booking rules: closed dates, arrival days, advance booking', () => {
    const closed = { ...perRoom, bookingRules: [{ from: '2027-03-02', to: '2027-03-02', closed: true }] };
    const a = pricePlanStay(closed, double, s('2027-03-01', '2027-03-04'));
    assert.ok(!a.ok && a.restriction?.rule === 'stop_sell');
    const saturdays = {
      ...perRoom,
      bookingRules: [{ from: '2027-01-01', to: '2027-12-31', arrivalDays: ['sat' as const] }],
    };
    const b = pricePlanStay(saturdays, double, s('2027-03-01', '2027-03-04'));
    assert.ok(!b.ok && b.restriction?.rule === 'closed_to_arrival');
    assert.equal(total(saturdays, double, s('2027-03-06', '2027-03-08')), 20000);
    const early = { ...perRoom, stayRules: { minAdvanceDays: 90 } };
    const c = pricePlanStay(early, double, s('2027-03-01', '2027-03-04'));
    assert.ok(!c.ok && c.restriction?.rule === 'booking_window');
  });
});

describe('rtapp rounding', () => {
  it('rounds each part to three decimals, then the sum to two (double rounding)', () => {
    // 1.0045 EUR → 1.005 → 1.01, where rounding once would give 1.00
    assert.equal(rtappRound(BIGINT, [10045n], 100n), 101);
    assert.equal(rtappRound(BIGINT, [10044n], 100n), 100);
    assert.equal(rtappRound(BIGINT, [10000n], 3n), 3333);
    assert.equal(rtappRound(BIGINT, [1n, 1n], 2n), 1, '0.005 + 0.005 cents');
    assert.equal(rtappRound(NUMBER, [10045], 100), 101);
    assert.equal(rtappRound(NUMBER, [10044], 100), 100);
    assert.equal(rtappRound(NUMBER, [10000], 3), 3333);
    assert.equal(rtappRound(NUMBER, [1, 1], 2), 1, '0.005 + 0.005 cents');
  });

  it('rounds currencies with 0, 1 and 3 minor digits as rtapp does', () => {
    // 12.3456 in a 0-digit currency: 12.346 → 12.35 → 12; in a 3-digit one: 12.346 → 12.350
    assert.equal(rtappRound(NUMBER, [123456], 10_000, 0), 12);
    assert.equal(rtappRound(BIGINT, [123456n], 10_000n, 0), 12);
    assert.equal(rtappRound(NUMBER, [123456], 10, 3), 12350);
    assert.equal(rtappRound(BIGINT, [123456n], 10n, 3), 12350);
    // one minor digit (tenths): 12.3456 → 12.346 → 12.35 → 12.4
    assert.equal(rtappRound(NUMBER, [123456], 1000, 1), 124);
    assert.equal(rtappRound(BIGINT, [123456n], 1000n, 1), 124);
  });
});
