import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Promotion } from '../../catalog/promotion.schema.ts';
import {
  discountAmount,
  discountApplies,
  promotionFits,
  promotionRefusal,
  unlocksPlan,
} from './promotion-rules.ts';

const promo = (p: Partial<Promotion> = {}): Promotion => ({ code: 'CODE', name: 'Code', ...p });
const stay = { today: '2027-01-10', checkIn: '2027-03-01', checkOut: '2027-03-04', nights: 3 };

describe('discount rule', () => {
  it('a percent of the room lines, rounded half up to the minor unit', () => {
    assert.equal(discountAmount({ percent: 10 }, 36000, 1, 3), 3600);
    assert.equal(discountAmount({ percent: 7 }, 15050, 1, 1), 1054); // 1053.5 → 1054
    assert.equal(discountAmount({ percent: 7 }, 15049, 1, 1), 1053); // 1053.43 → 1053
    assert.equal(discountAmount({ percent: 100 }, 36000, 1, 3), 36000);
  });
  it('amountPerNight per room and night, never more than the room lines', () => {
    assert.equal(discountAmount({ amountPerNight: 2000 }, 48000, 2, 2), 8000);
    assert.equal(discountAmount({ amountPerNight: 999_999 }, 48000, 2, 2), 48000);
    assert.equal(discountAmount({ amountPerNight: 100 }, 0, 1, 1), 0);
  });
});

describe('validity rule', () => {
  it('booking dates: not yet valid before bookFrom, expired after bookTo, both inclusive', () => {
    assert.equal(promotionRefusal(promo({ bookFrom: '2027-01-11' }), stay), 'not_yet_valid');
    assert.equal(promotionRefusal(promo({ bookFrom: '2027-01-10' }), stay), null);
    assert.equal(promotionRefusal(promo({ bookTo: '2027-01-09' }), stay), 'expired');
    assert.equal(promotionRefusal(promo({ bookTo: '2027-01-10' }), stay), null);
  });
  it('every night of the stay within stayFrom..stayTo, and at least minNights', () => {
    // Nights 03-01, 03-02, 03-03: the last night is the day before check-out.
    assert.equal(promotionRefusal(promo({ stayFrom: '2027-03-01', stayTo: '2027-03-03' }), stay), null);
    assert.equal(promotionRefusal(promo({ stayTo: '2027-03-02' }), stay), 'not_applicable');
    assert.equal(promotionRefusal(promo({ stayFrom: '2027-03-02' }), stay), 'not_applicable');
    assert.equal(promotionRefusal(promo({ minNights: 4 }), stay), 'not_applicable');
    assert.equal(promotionRefusal(promo({ minNights: 3 }), stay), null);
  });
});

describe('scope rule', () => {
  it('a discount applies to its rate plans and room types (default all), and to the plans it unlocks', () => {
    const p = promo({
      discount: { percent: 5 },
      ratePlans: ['flex'],
      roomTypes: ['double'],
      unlocksRatePlans: ['corp'],
    });
    assert.equal(discountApplies(p, 'double', 'flex'), true);
    assert.equal(discountApplies(p, 'double', 'nonref'), false);
    assert.equal(discountApplies(p, 'suite', 'flex'), false);
    assert.equal(discountApplies(p, 'double', 'corp'), true);
    assert.equal(discountApplies(promo({ discount: { percent: 5 } }), 'suite', 'nonref'), true);
  });
  it('a code without a discount fits only the plans it unlocks', () => {
    const p = promo({ unlocksRatePlans: ['corp'] });
    assert.equal(unlocksPlan(p, 'corp'), true);
    assert.equal(unlocksPlan(null, 'corp'), false);
    assert.equal(promotionFits(p, 'double', 'corp'), true);
    assert.equal(promotionFits(p, 'double', 'flex'), false);
  });
});
