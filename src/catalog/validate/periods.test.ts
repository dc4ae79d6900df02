import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogue, problemsOf } from '../catalog.fixtures.ts';
import { parseCatalog } from '../catalog.validate.ts';

// The ends of seasons and restrictions (API.md section 6): dates, or yearly month-days `--MM-DD`.

describe('parseCatalog: periods', () => {
  it('accepts yearly periods, wrapping the year end too, and keeps them as written', () => {
    const json = catalogue();
    json.hotels[0].ratePlans[0].seasons = [
      { from: '--07-01', to: '--08-31', prices: { double: { base: 16000 } } },
      { from: '--12-20', to: '--01-05', prices: { double: { base: 15000 } } },
    ];
    json.hotels[0].restrictions = [
      { from: '--02-29', to: '--02-29', closedToArrival: true },
      { from: '--12-30', to: '--12-31', minStay: 3 },
      { from: '2027-05-01', to: '2027-05-01', closedToArrival: true },
    ];
    const [hotel] = parseCatalog(json).hotels;
    assert.deepEqual(
      hotel?.ratePlans[0]?.seasons.map((s) => [s.from, s.to]),
      [
        ['--07-01', '--08-31'],
        ['--12-20', '--01-05'],
      ],
    );
    assert.deepEqual(
      hotel?.restrictions.map((r) => [r.from, r.to]),
      [
        ['--02-29', '--02-29'],
        ['--12-30', '--12-31'],
        ['2027-05-01', '2027-05-01'],
      ],
    );
  });

  it('rejects a period mixing a date and a month-day, naming the form expected', () => {
    const json = catalogue();
    json.hotels[0].ratePlans[0].seasons = [{ from: '--07-01', to: '2027-08-31', prices: {} }];
    json.hotels[0].restrictions = [{ from: '2027-12-30', to: '--01-02', minStay: 3 }];
    assert.deepEqual(problemsOf(json), [
      'hotels/0/ratePlans/0/seasons/0/to: must be a month-day --MM-DD like from (--07-01): a yearly period has no year',
      'hotels/0/restrictions/0/to: must be a calendar date YYYY-MM-DD like from (2027-12-30), or both ends month-days --MM-DD for every year',
    ]);
  });

  it('rejects month-days that are not on the calendar and other forms of dates', () => {
    const json = catalogue();
    json.hotels[0].ratePlans[0].seasons = [{ from: '--02-30', to: '--03-31', prices: {} }];
    json.hotels[0].restrictions = [
      { from: '--04-01', to: '--04-31', stopSell: true },
      { from: '07-01', to: '--07-02', stopSell: true },
      { from: '--7-1', to: '2027-02-29', stopSell: true },
    ];
    assert.deepEqual(problemsOf(json), [
      'hotels/0/ratePlans/0/seasons/0/from: must be a calendar date YYYY-MM-DD, or a month-day --MM-DD for every year (--02-29: leap years only)',
      'hotels/0/restrictions/0/to: must be a calendar date YYYY-MM-DD, or a month-day --MM-DD for every year (--02-29: leap years only)',
      'hotels/0/restrictions/1/from: must be a calendar date YYYY-MM-DD, or a month-day --MM-DD for every year (--02-29: leap years only)',
      'hotels/0/restrictions/2/from: must be a calendar date YYYY-MM-DD, or a month-day --MM-DD for every year (--02-29: leap years only)',
      'hotels/0/restrictions/2/to: must be a calendar date YYYY-MM-DD, or a month-day --MM-DD for every year (--02-29: leap years only)',
    ]);
  });
});
