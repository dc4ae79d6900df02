import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bareHotel, ROOM_TYPES, ratePlan } from '../../catalog/catalog.fixtures.ts';
import type { Hotel, RoomTypeDef } from '../../catalog/catalog.schema.ts';
import type { PlanPricing } from '../../catalog/rate-plan.model.ts';
import { hotelNights } from '../../hotel-calendar/hotel-nights.ts';
import { priceRoomsUnderPlan } from './plan-pricing.ts';
import { checkStayRules } from './stay-rules.ts';

const double = ROOM_TYPES.double as RoomTypeDef;
/** An occupancy-priced plan whose own booking rule asks for at least 3 nights. */
const pricing: PlanPricing = {
  per: 'room',
  unitNights: 1,
  rates: [
    { roomTypeId: 'double', from: '2027-01-01', to: '2027-12-31', byGuests: [{ guests: 2, amount: 10000 }] },
  ],
  bookingRules: [{ from: '2027-01-01', to: '2027-12-31', minStay: 3 }],
};
const plan = ratePlan({ pricing });

function hotel(overrides: Partial<Hotel> = {}): Hotel {
  return bareHotel({ roomTypes: [double] as Hotel['roomTypes'], ratePlans: [plan], ...overrides });
}
const stay = (checkIn: string, checkOut: string) => ({
  checkIn,
  checkOut,
  adults: 2,
  children: [],
  rooms: 1,
  today: '2026-11-22',
});

describe('checkStayRules: the hotel’s restrictions, then the plan’s own rules', () => {
  it('answers the plan’s booking rule as a restriction', () => {
    const h = hotel();
    const verdict = checkStayRules(h, hotelNights(h), double, plan, stay('2027-02-08', '2027-02-10'));
    assert.equal(verdict.violation?.rule, 'min_stay');
    assert.equal(verdict.refused, null);
  });

  it('answers the hotel’s restriction first when both close the stay', () => {
    const h = hotel({
      restrictions: [{ from: '2027-02-08', to: '2027-02-09', stopSell: true }] as Hotel['restrictions'],
    });
    const verdict = checkStayRules(h, hotelNights(h), double, plan, stay('2027-02-08', '2027-02-10'));
    assert.equal(verdict.violation?.rule, 'stop_sell');
  });

  it('sets the plan’s other refusals apart (no rate for the party: no offer, no restriction)', () => {
    const h = hotel();
    const verdict = checkStayRules(h, hotelNights(h), double, plan, {
      ...stay('2027-02-08', '2027-02-12'),
      adults: 3,
    });
    assert.equal(verdict.violation, null);
    assert.equal(verdict.refused?.reason, 'unavailable'); // no rate for 3 guests
  });

  it('passes a stay both allow', () => {
    const h = hotel();
    const allowed = stay('2027-02-08', '2027-02-12');
    const verdict = checkStayRules(h, hotelNights(h), double, plan, allowed);
    assert.equal(verdict.violation, null);
    assert.equal(verdict.refused, null);
    // The rooms as the plan prices them, for priceStay to take instead of pricing them again.
    assert.deepEqual(
      verdict.planned,
      (priceRoomsUnderPlan(h, double, pricing, allowed) as { rooms: unknown }).rooms,
    );
    assert.equal(verdict.planned?.length, 1);
  });
});
