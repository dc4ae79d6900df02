import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testHotel } from '../catalog.fixtures.ts';
import type { HotelDef } from '../catalog.schema.ts';
import { CatalogError, parseCatalog } from '../catalog.validate.ts';

/** The problems a catalogue with this hotel is refused with (none: it loads). */
function problems(hotel: HotelDef): string[] {
  try {
    parseCatalog({ hotels: [hotel] });
    return [];
  } catch (error) {
    assert.ok(error instanceof CatalogError);
    return error.problems;
  }
}

const corporate = {
  id: 'corporate',
  name: 'Corporate',
  refundable: true,
  prepayment: 'none' as const,
  hidden: true,
  prices: { double: { base: 9000 } },
};

describe('catalogue promotions (API.md 14.1)', () => {
  it('loads codes upper-cased and a hidden plan a code unlocks', () => {
    const hotel = testHotel({
      ratePlans: [...testHotel().ratePlans, corporate],
      promotions: [{ code: 'acme', name: 'Acme', unlocksRatePlans: ['corporate'] }],
    });
    const [loaded] = parseCatalog({ hotels: [hotel] }).hotels;
    assert.equal(loaded?.promotions?.[0]?.code, 'ACME');
    assert.equal(loaded?.ratePlans.find((p) => p.id === 'corporate')?.hidden, true);
  });

  it('refuses a hidden plan no code unlocks, naming it', () => {
    const found = problems(testHotel({ ratePlans: [...testHotel().ratePlans, corporate] }));
    assert.equal(found.length, 1);
    assert.match(
      found[0] as string,
      /^hotels\/0\/ratePlans\/2\/hidden: no promotion code unlocks hidden rate plan "corporate"/,
    );
  });

  it('refuses bad codes, discounts, references and periods, each with its path', () => {
    const found = problems(
      testHotel({
        promotions: [
          { code: 'no good', name: 'Bad code', discount: { percent: 5 } },
          { code: 'ZERO', name: 'Zero', discount: { percent: 0 } },
          { code: 'HALF', name: 'Half a cent', discount: { amountPerNight: 0.5 } },
        ],
      }),
    );
    assert.ok(
      found.some((p) => p.startsWith('hotels/0/promotions/0/code')),
      found.join('\n'),
    );
    assert.ok(
      found.some((p) => p.startsWith('hotels/0/promotions/1/discount')),
      found.join('\n'),
    );
    assert.ok(
      found.some((p) => p.startsWith('hotels/0/promotions/2/discount')),
      found.join('\n'),
    );
    const refs = problems(
      testHotel({
        promotions: [
          { code: 'REFS', name: 'Refs', discount: { percent: 5 }, ratePlans: ['nope'], roomTypes: ['attic'] },
          {
            code: 'DATES',
            name: 'Dates',
            discount: { percent: 5 },
            stayFrom: '2027-03-02',
            stayTo: '2027-03-01',
          },
          { code: 'dates', name: 'Again', discount: { percent: 5 } },
          { code: 'NOTHING', name: 'Does nothing' },
        ],
      }),
    );
    assert.deepEqual(refs.sort(), [
      'hotels/0/promotions/0/ratePlans/0: unknown rate plan "nope"',
      'hotels/0/promotions/0/roomTypes/0: unknown room type "attic"',
      'hotels/0/promotions/1/stayTo: must not be before stayFrom',
      'hotels/0/promotions/2/code: duplicate promotion code "dates"',
      'hotels/0/promotions/3/discount: a code needs a discount or rate plans it unlocks',
    ]);
  });
});
