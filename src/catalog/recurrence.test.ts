import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Hotel } from './catalog.schema.ts';
import { expandYearlyPeriods, expansionYears, isMonthDay, isYearly, occurrences } from './recurrence.ts';

describe('isMonthDay', () => {
  it('accepts every day of the calendar, 29 February included', () => {
    for (const md of ['--01-01', '--02-29', '--04-30', '--12-31']) assert.equal(isMonthDay(md), true, md);
  });

  it('refuses days that never exist and other forms', () => {
    for (const md of [
      '--02-30',
      '--04-31',
      '--13-01',
      '--00-10',
      '--01-00',
      '--1-01',
      '07-01',
      '2027-07-01',
    ]) {
      assert.equal(isMonthDay(md), false, md);
    }
  });

  it('makes a period yearly only when both ends are month-days', () => {
    assert.equal(isYearly({ from: '--07-01', to: '--08-31' }), true);
    assert.equal(isYearly({ from: '--07-01', to: '2027-08-31' }), false);
    assert.equal(isYearly({ from: '2027-07-01', to: '2027-08-31' }), false);
  });
});

describe('expansionYears', () => {
  it('runs from last year to this year + ceil(maxDaysBeforeArrival / 365) + 1', () => {
    assert.deepEqual(expansionYears('2026-11-23', 500), [2025, 2029]);
    assert.deepEqual(expansionYears('2026-01-01', 365), [2025, 2028]);
    assert.deepEqual(expansionYears('2026-01-01', 366), [2025, 2029]);
    assert.deepEqual(expansionYears('2026-12-31', 0), [2025, 2027]);
  });

  it('reaches ten years ahead (the largest limit) for a hotel without a booking limit', () => {
    assert.deepEqual(expansionYears('2026-06-15', null), [2025, 2037]);
  });

  it('holds the last night of the farthest stay: arrival at the limit plus 365 nights', () => {
    for (const [today, limit] of [
      ['2026-12-31', 500],
      ['2028-12-31', 3650],
      ['2027-01-01', 0],
    ] as const) {
      const [, last] = expansionYears(today, limit);
      const lastNight = new Date(Date.parse(`${today}T00:00:00Z`) + (limit + 364) * 86_400_000);
      assert.ok(lastNight.getUTCFullYear() <= last, `${today} + ${limit}`);
    }
  });
});

describe('occurrences', () => {
  it('dates a period within the year once per year of the window', () => {
    assert.deepEqual(occurrences({ from: '--07-01', to: '--08-31' }, [2026, 2028]), [
      { from: '2026-07-01', to: '2026-08-31' },
      { from: '2027-07-01', to: '2027-08-31' },
      { from: '2028-07-01', to: '2028-08-31' },
    ]);
    assert.deepEqual(occurrences({ from: '--05-01', to: '--05-01' }, [2027, 2027]), [
      { from: '2027-05-01', to: '2027-05-01' },
    ]);
  });

  it('runs a period wrapping the year end into the next year, from the December before the window', () => {
    assert.deepEqual(occurrences({ from: '--12-20', to: '--01-05' }, [2026, 2028]), [
      { from: '2025-12-20', to: '2026-01-05' },
      { from: '2026-12-20', to: '2027-01-05' },
      { from: '2027-12-20', to: '2028-01-05' },
      { from: '2028-12-20', to: '2029-01-05' },
    ]);
  });

  it('covers every night of the window edges, and nothing is cut at them', () => {
    const wrapping = occurrences({ from: '--12-31', to: '--01-01' }, [2026, 2027]);
    assert.deepEqual(wrapping[0], { from: '2025-12-31', to: '2026-01-01' });
    assert.deepEqual(wrapping.at(-1), { from: '2027-12-31', to: '2028-01-01' });
    const wholeYear = occurrences({ from: '--01-01', to: '--12-31' }, [2026, 2027]);
    assert.deepEqual(wholeYear, [
      { from: '2026-01-01', to: '2026-12-31' },
      { from: '2027-01-01', to: '2027-12-31' },
    ]);
  });

  it('keeps 29 February to leap years: a period of that day alone applies only then', () => {
    assert.deepEqual(occurrences({ from: '--02-29', to: '--02-29' }, [2026, 2029]), [
      { from: '2028-02-29', to: '2028-02-29' },
    ]);
  });

  it('starts a period from 29 February on 1 March, and ends one at it on 28 February, in other years', () => {
    assert.deepEqual(occurrences({ from: '--02-29', to: '--03-05' }, [2027, 2028]), [
      { from: '2027-03-01', to: '2027-03-05' },
      { from: '2028-02-29', to: '2028-03-05' },
    ]);
    assert.deepEqual(occurrences({ from: '--02-20', to: '--02-29' }, [2027, 2028]), [
      { from: '2027-02-20', to: '2027-02-28' },
      { from: '2028-02-20', to: '2028-02-29' },
    ]);
    assert.deepEqual(occurrences({ from: '--03-01', to: '--02-29' }, [2027, 2028]), [
      { from: '2026-03-01', to: '2027-02-28' },
      { from: '2027-03-01', to: '2028-02-29' },
      { from: '2028-03-01', to: '2029-02-28' },
    ]);
  });

  it('gives occurrences that never overlap one another', () => {
    for (const period of [
      { from: '--02-29', to: '--02-28' },
      { from: '--03-01', to: '--02-29' },
      { from: '--01-02', to: '--01-01' },
    ]) {
      const dated = occurrences(period, [2025, 2033]);
      for (let i = 1; i < dated.length; i++) {
        assert.ok((dated[i - 1]?.to ?? '') < (dated[i]?.from ?? ''), JSON.stringify(period));
      }
    }
  });
});

function hotel(overrides: Partial<Hotel> = {}): Hotel {
  return {
    id: 'h',
    name: 'H',
    timezone: 'Europe/Lisbon',
    currency: 'EUR',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    maxDaysBeforeArrival: 300,
    roomTypes: [{ id: 'double', name: 'Double', count: 1, maxAdults: 2, maxChildren: 0, maxOccupancy: 2 }],
    ratePlans: [
      {
        id: 'flex',
        name: 'Flex',
        refundable: true,
        prepayment: 'none',
        freeCancellationDays: 0,
        penaltyNights: 1,
        prices: { double: { base: 100 } },
        seasons: [],
      },
    ],
    services: [],
    taxes: [],
    restrictions: [],
    ...overrides,
  };
}

describe('expandYearlyPeriods', () => {
  it('returns a hotel without yearly periods as it is', () => {
    const h = hotel({ restrictions: [{ from: '2027-05-01', to: '2027-05-01', closedToArrival: true }] });
    assert.equal(expandYearlyPeriods(h, '2026-11-23'), h);
  });

  it('puts the occurrences where the yearly period was listed, so catalogue order still decides', () => {
    const h = hotel({
      restrictions: [
        { from: '2027-02-10', to: '2027-02-12', stopSell: true },
        { from: '--12-30', to: '--01-02', minStay: 3, ratePlans: ['flex'] },
        { from: '2027-05-01', to: '2027-05-01', closedToArrival: true },
      ],
    });
    // Today 2026-11-23, at most 300 days ahead: the years 2025 to 2026 + 1 + 1.
    assert.deepEqual(expandYearlyPeriods(h, '2026-11-23').restrictions, [
      { from: '2027-02-10', to: '2027-02-12', stopSell: true },
      { from: '2024-12-30', to: '2025-01-02', minStay: 3, ratePlans: ['flex'] },
      { from: '2025-12-30', to: '2026-01-02', minStay: 3, ratePlans: ['flex'] },
      { from: '2026-12-30', to: '2027-01-02', minStay: 3, ratePlans: ['flex'] },
      { from: '2027-12-30', to: '2028-01-02', minStay: 3, ratePlans: ['flex'] },
      { from: '2028-12-30', to: '2029-01-02', minStay: 3, ratePlans: ['flex'] },
      { from: '2027-05-01', to: '2027-05-01', closedToArrival: true },
    ]);
  });

  it('expands seasons of every rate plan and leaves the definition untouched', () => {
    const season = { from: '--07-01', to: '--08-31', prices: { double: { base: 160 } } };
    const h = hotel();
    const plan = h.ratePlans[0];
    assert.ok(plan);
    plan.seasons = [season, { from: '2027-08-15', to: '2027-08-15', prices: { double: { base: 200 } } }];
    const expanded = expandYearlyPeriods(h, '2027-01-10');
    assert.deepEqual(
      expanded.ratePlans[0]?.seasons.map((s) => [s.from, s.to, s.prices.double?.base]),
      [
        ['2026-07-01', '2026-08-31', 160],
        ['2027-07-01', '2027-08-31', 160],
        ['2028-07-01', '2028-08-31', 160],
        ['2029-07-01', '2029-08-31', 160],
        ['2027-08-15', '2027-08-15', 200],
      ],
    );
    assert.deepEqual(plan.seasons[0], season);
  });
});
