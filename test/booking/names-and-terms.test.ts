import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  BOOKING,
  bearer,
  type Json,
  post,
  requestQuote,
  reserve,
  search,
  startBookingApp,
  stay,
} from './helpers.ts';

// Catalogue names per language (API.md 9) and a free-cancellation moment already past (API.md 6).

const hotel = makeHotel({
  name: { en: 'Harbour View', pt: 'Vista do Porto' },
  roomTypes: [
    {
      id: 'double',
      name: { en: 'Double Room', es: 'Habitación doble', pt: 'Quarto duplo' },
      count: 10,
      maxAdults: 2,
      maxChildren: 1,
      maxOccupancy: 3,
    },
    { id: 'suite', name: 'Suite', count: 2, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
  ],
  ratePlans: [
    {
      id: 'flex',
      name: { es: 'Flexible', pt: 'Flexível' },
      refundable: true,
      prepayment: 'none',
      freeCancellationDays: 10,
      penaltyNights: 1,
      prices: { double: { base: 12000 }, suite: { base: 30000 } },
    },
  ],
  services: [
    {
      id: 'breakfast',
      name: { en: 'Breakfast', es: 'Desayuno', pt: 'Pequeno-almoço' },
      pricing: 'per_guest_per_night',
      amount: 1500,
    },
  ],
  taxes: [
    {
      code: 'city_tax',
      name: { en: 'City tax', es: 'Tasa turística' },
      type: 'per_adult_per_night',
      amount: 200,
    },
    { code: 'vat', name: { en: 'VAT', es: 'IVA', pt: 'IVA' }, type: 'percent_included', rate: 10 },
  ],
});

describe('catalogue names by Accept-Language, and free cancellation already past', () => {
  let t: TestApp;
  before(async () => {
    // Quotes live 3 days here, so one can be booked after its free-cancellation moment.
    t = await startBookingApp({ hotels: [hotel], env: { QUOTE_TTL_SECONDS: String(3 * 24 * 3600) } });
  });
  after(() => t?.close());

  const body = (fromToday: number) => ({
    hotelId: hotel.id,
    ...stay(t, fromToday, 2),
    adults: 2,
    services: ['breakfast'],
  });

  it('the hotel endpoint names things in the asked language, the plain name as the fallback', async () => {
    const es = await t.inject({
      method: 'GET',
      url: `${BOOKING}/hotels/${hotel.id}`,
      headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' },
    });
    assert.equal(es.statusCode, 200, es.body);
    assert.equal(es.headers['content-language'], 'es');
    assert.match(String(es.headers.vary), /Accept-Language/);
    const h = es.json();
    assert.equal(h.name, 'Harbour View', 'no Spanish hotel name: the plain (English) one');
    assert.deepEqual(
      h.roomTypes.map((r: Json) => r.name),
      ['Habitación doble', 'Suite'],
    );
    assert.deepEqual(h.ratePlans, [{ id: 'flex', name: 'Flexible', refundable: true, prepayment: 'none' }]);
    assert.equal(h.services[0].name, 'Desayuno');
    assert.deepEqual(
      h.taxes.map((x: Json) => x.name),
      ['Tasa turística', 'IVA'],
    );

    const none = (await t.inject({ method: 'GET', url: `${BOOKING}/hotels/${hotel.id}` })).json();
    // No English rate plan name: the first one given.
    assert.equal(none.ratePlans[0].name, 'Flexible');
    assert.equal(none.roomTypes[0].name, 'Double Room');
    const pt = (
      await t.inject({
        method: 'GET',
        url: `${BOOKING}/hotels/${hotel.id}`,
        headers: { 'accept-language': 'pt-BR' },
      })
    ).json();
    assert.equal(pt.name, 'Vista do Porto');
    assert.equal(pt.ratePlans[0].name, 'Flexível');
    assert.equal(pt.taxes[0].name, 'City tax');
  });

  it('search, quote and reservation name room type, rate plan, lines and taxes in the asked language', async () => {
    const pt = { 'accept-language': 'pt' };
    const found = await search(t, body(30), pt);
    assert.equal(found.statusCode, 200, found.body);
    assert.equal(found.headers['content-language'], 'pt');
    const offer = found.json().offers.find((o: Json) => o.roomType.id === 'double');
    assert.equal(offer.roomType.name, 'Quarto duplo');
    assert.equal(offer.ratePlan.name, 'Flexível');
    assert.equal(found.json().hotel.name, 'Vista do Porto');

    const quoted = await requestQuote(t, { ...body(30), roomTypeId: 'double', ratePlanId: 'flex' }, pt);
    assert.equal(quoted.statusCode, 201, quoted.body);
    const quote = quoted.json();
    assert.equal(quote.roomType.name, 'Quarto duplo');
    assert.deepEqual(
      [...new Set(quote.lines.map((l: Json) => l.name))],
      ['Quarto duplo', 'Pequeno-almoço', 'City tax'],
    );
    assert.equal(quote.includedTaxes[0].name, 'IVA');

    const created = await reserve(t, quote.id, {}, { 'accept-language': 'es' });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.headers['content-language'], 'es');
    const reservation = created.json();
    assert.equal(reservation.roomType.name, 'Habitación doble');
    assert.equal(reservation.lines.at(-1).name, 'Tasa turística');

    const read = await t.inject({
      method: 'GET',
      url: `${BOOKING}/reservations/${reservation.id}`,
      headers: { ...bearer(reservation.accessToken) },
    });
    assert.equal(read.json().roomType.name, 'Double Room', 'no Accept-Language: the plain names');
    assert.equal(read.headers['content-language'], 'en');
    const cancelled = await post(
      t,
      `reservations/${reservation.id}/cancel`,
      {},
      {
        ...bearer(reservation.accessToken),
        'accept-language': 'pt',
      },
    );
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(cancelled.json().ratePlan.name, 'Flexível');
  });

  it('freeCancellationUntil is null in search, quote and reservation once that moment has passed', async () => {
    // Free until 10 days before arrival: passed for a stay 5 days ahead, still open 30 days ahead.
    const late = await search(t, body(5));
    const lateOffer = late.json().offers.find((o: Json) => o.roomType.id === 'double');
    assert.equal(lateOffer.cancellationPolicy.freeCancellationUntil, null);
    assert.equal(lateOffer.cancellationPolicy.refundable, true);
    assert.equal(lateOffer.cancellationPolicy.penalty.amount, 12000);
    const early = await search(t, body(30));
    const earlyOffer = early.json().offers.find((o: Json) => o.roomType.id === 'double');
    assert.match(earlyOffer.cancellationPolicy.freeCancellationUntil, /^\d{4}-\d{2}-\d{2}T/);

    const quote = (await requestQuote(t, { ...body(5), roomTypeId: 'double', ratePlanId: 'flex' })).json();
    assert.equal(quote.cancellationPolicy.freeCancellationUntil, null);
    const created = await reserve(t, quote.id);
    assert.equal(created.json().cancellationPolicy.freeCancellationUntil, null);

    // A quote made before the moment and booked after it: the reservation's terms say so too.
    const inTime = (await requestQuote(t, { ...body(11), roomTypeId: 'double', ratePlanId: 'flex' })).json();
    assert.notEqual(inTime.cancellationPolicy.freeCancellationUntil, null);
    t.clock.advanceDays(1.5);
    try {
      const booked = await reserve(t, inTime.id);
      // The quote may have expired over 1.5 days (QUOTE_TTL_SECONDS): then there is nothing to check.
      if (booked.statusCode === 201)
        assert.equal(booked.json().cancellationPolicy.freeCancellationUntil, null);
    } finally {
      t.clock.advanceDays(-1.5);
    }
  });
});
