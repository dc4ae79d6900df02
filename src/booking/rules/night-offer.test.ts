import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROOM_TYPES, testHotel } from '../../catalog/catalog.fixtures.ts';
import type { Hotel } from '../../catalog/catalog.schema.ts';
import { parseCatalog } from '../../catalog/catalog.validate.ts';
import { hotelNights } from '../../hotel-calendar/hotel-nights.ts';
import { evaluateStay } from './availability.ts';
import { nightOffer } from './night-offer.ts';

// The price calendar's night agrees with a one-night search's lowest nightly price (API.md 9.1).

const addDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('nightOffer', () => {
  const def = testHotel({ roomTypes: [ROOM_TYPES.double, ROOM_TYPES.suite, ROOM_TYPES.family] });
  (def.ratePlans[0] as { prices: Record<string, unknown> }).prices.family = {
    base: 20000,
    includedAdults: 3,
    extraAdult: 2500,
    child: 900,
  };
  def.ratePlans[0]?.seasons?.push({
    from: '2027-07-01',
    to: '2027-08-31',
    prices: { double: { base: 16000 } },
  });
  const hotel = parseCatalog({ hotels: [def] }).hotels[0] as Hotel;
  const nights = hotelNights(hotel);
  const today = '2027-03-01';

  it('is the lowest nightly amount a one-night search offers, for parties of every shape', () => {
    const parties = [
      { adults: 1, children: [], rooms: 1 },
      { adults: 2, children: [], rooms: 1 },
      { adults: 2, children: [5], rooms: 1 },
      { adults: 3, children: [2, 9], rooms: 2 },
      { adults: 4, children: [], rooms: 1 },
    ];
    for (const party of parties) {
      for (const night of ['2027-03-01', '2027-03-10', '2027-07-15']) {
        const { offers } = evaluateStay(
          hotel,
          { ...party, checkIn: night, checkOut: addDay(night), services: [], today },
          (id) => nights.leastLeft(id, night, addDay(night)),
          undefined,
          nights,
          { summary: true },
        );
        const lowest = offers.length
          ? Math.min(...offers.map((o) => o.price.nightly[0]?.amount.amount ?? 0))
          : null;
        const offer = nightOffer(hotel, nights, night, party, today);
        assert.equal(offer.fromPrice, lowest, `${JSON.stringify(party)} ${night}`);
        assert.equal(offer.available, lowest !== null);
      }
    }
  });

  it('answers a past night as unavailable and closed to arrival', () => {
    const offer = nightOffer(hotel, nights, '2027-02-28', { adults: 2, children: [], rooms: 1 }, today);
    assert.deepEqual(offer, {
      date: '2027-02-28',
      available: false,
      fromPrice: null,
      closedToArrival: true,
      closedToDeparture: false,
      minStay: null,
    });
  });
});
