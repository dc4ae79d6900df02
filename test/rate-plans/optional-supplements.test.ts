import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { handleRatePlanNotif } from '../../src/channels/alpinebits/rate-plans.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import {
  addDays,
  assertInvalid,
  assertLinesAddUp,
  assertProblem,
  type Json,
  modify,
  quoteOk,
  requestQuote,
  reserve,
  search,
  stay,
} from '../booking/helpers.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { planHotel } from './plan-hotel.ts';

/**
 * Optional supplements (HotelData 4.5, MandatoryIndicator="false") are offered as extras of their
 * rate plan (docs/api.md §9.3): listed with their price in the offer's `plan.extras`, bookable by
 * their code in `services`, priced by their ChargeTypeCode. Expected amounts worked out here.
 */
function message(hotelId: string, start: string): string {
  const end = addDays(start, 45);
  const supplement = (code: string, charge: string, mandatory: boolean, title: string) =>
    `<Supplement InvType="EXTRA" InvCode="${code}" AddToBasicRateIndicator="true" MandatoryIndicator="${mandatory}" ChargeTypeCode="${charge}">
          <Description Name="title"><Text TextFormat="PlainText" Language="en">${title}</Text></Description>
        </Supplement>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<OTA_HotelRatePlanNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.000">
  <RatePlans HotelCode="${hotelId}">
    <RatePlan RatePlanNotifType="New" CurrencyCode="EUR" RatePlanCode="room-only">
      <Rates>
        <Rate RateTimeUnit="Day" UnitMultiplier="1"><BaseByGuestAmts><BaseByGuestAmt Type="25"/></BaseByGuestAmts></Rate>
        <Rate InvTypeCode="double" Start="${start}" End="${end}">
          <BaseByGuestAmts>
            <BaseByGuestAmt NumberOfGuests="1" AgeQualifyingCode="10" AmountAfterTax="90"/>
            <BaseByGuestAmt NumberOfGuests="2" AgeQualifyingCode="10" AmountAfterTax="100"/>
          </BaseByGuestAmts>
        </Rate>
      </Rates>
      <Supplements>
        ${supplement('CLEAN', '18', true, 'Final cleaning')}
        <Supplement InvType="EXTRA" InvCode="CLEAN" Amount="30" Start="${start}" End="${end}"/>
        ${supplement('BRK', '21', false, 'Breakfast')}
        <Supplement InvType="EXTRA" InvCode="BRK" Amount="12" Start="${start}" End="${end}"/>
        ${supplement('TRANSFER', '18', false, 'Airport transfer')}
        <Supplement InvType="EXTRA" InvCode="TRANSFER" Amount="45.5" Start="${start}" End="${end}"/>
        ${supplement('SKI', '20', false, 'Ski pass')}
        <Supplement InvType="EXTRA" InvCode="SKI" Amount="150" Start="${addDays(start, 200)}" End="${addDays(start, 210)}"/>
      </Supplements>
      <Description Name="title"><Text TextFormat="PlainText" Language="en">Room only</Text></Description>
    </RatePlan>
  </RatePlans>
</OTA_HotelRatePlanNotifRQ>`;
}

const hotelDef = () => planHotel({ maxAdults: 2, maxChildren: 1, maxOccupancy: 3 });

describe('optional supplements are extras of their rate plan (docs/api.md §9.3)', () => {
  let t: TestApp;
  let hotel: HotelDef;
  let checkIn: string;
  let checkOut: string;
  const plan = (body: Json) => body.offers.find((o: Json) => o.ratePlan.id === 'room-only');

  before(async () => {
    hotel = hotelDef();
    t = await startTestApp({ hotels: [hotel] });
    ({ checkIn, checkOut } = stay(t, 30, 4));
    const res = await handleRatePlanNotif(
      { db: t.db, catalog: t.runtime.catalog, audit: SYSTEM_SCOPE },
      { xml: message(hotel.id, checkIn), clientId: 'pms', auth: { hotelIds: null } },
    );
    assert.match(res.xml, /<Success\/>/, res.xml);
  });
  after(() => t.close());

  it('search lists the extras priced for the stay, outside the total', async () => {
    const res = await search(t, { hotelId: hotel.id, checkIn, checkOut, adults: 2 });
    assert.equal(res.statusCode, 200, res.body);
    const offer = plan(res.json());
    // 4 nights × 100 + cleaning 30 once
    assert.equal(offer.total.amount, 43000);
    assert.deepEqual(
      offer.plan.extras.map((x: Json) => [x.code, x.names.en, x.amount.amount]),
      [
        ['BRK', 'Breakfast', 12_00 * 2 * 4], // per person per night: 2 guests × 4 nights
        ['TRANSFER', 'Airport transfer', 45_50], // per room per stay: once
      ],
      'the ski pass has no price for these dates: not offered',
    );
    assert.deepEqual(
      offer.plan.supplements.map((s: Json) => s.code),
      ['CLEAN'],
    );
  });

  it('an extra asked for is in that plan’s total and not in another plan’s', async () => {
    const res = await search(t, { hotelId: hotel.id, checkIn, checkOut, adults: 2, services: ['BRK'] });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(plan(res.json()).total.amount, 43000 + 9600);
    const flex = res.json().offers.find((o: Json) => o.ratePlan.id === 'flex');
    assert.equal(flex.total.amount, 12000 * 4);
  });

  it('a quote prices each extra as a service line; two rooms pay per person', async () => {
    const quote = await quoteOk(t, {
      hotelId: hotel.id,
      checkIn,
      checkOut,
      adults: 3,
      rooms: 2,
      roomTypeId: 'double',
      ratePlanId: 'room-only',
      services: ['TRANSFER', 'BRK'],
    });
    assertLinesAddUp(quote);
    const services = quote.lines
      .filter((l: Json) => l.type === 'service')
      .map((l: Json) => [l.code, l.amount.amount]);
    // rooms of 2 and 1 adults: (100 + 90) × 4 nights; cleaning and transfer once per room;
    // breakfast 12 × 3 guests × 4 nights
    assert.deepEqual(services, [
      ['CLEAN', 6000],
      ['BRK', 14400],
      ['TRANSFER', 9100],
    ]);
    assert.equal(quote.total.amount, 19000 * 4 + 6000 + 14400 + 9100);
  });

  it('refuses an extra of another plan, an unknown one, and one without a price for the stay', async () => {
    const other = await requestQuote(t, {
      hotelId: hotel.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
      services: ['BRK'],
    });
    assertInvalid(other, '/services/0');
    assertInvalid(
      await search(t, { hotelId: hotel.id, checkIn, checkOut, adults: 2, services: ['nope'] }),
      '/services/0',
    );
    const ski = await requestQuote(t, {
      hotelId: hotel.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'room-only',
      services: ['SKI'],
    });
    const problem = assertProblem(ski, 409, 'no_availability');
    assert.match(problem.detail, /Ski pass/);
  });

  it('a reservation keeps its extras; a change of services re-prices them', async () => {
    const quote = await quoteOk(t, {
      hotelId: hotel.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'room-only',
      services: ['BRK'],
    });
    const res = await reserve(t, quote.id);
    assert.equal(res.statusCode, 201, res.body);
    const reservation = res.json();
    assert.equal(reservation.total.amount, 52600);
    assert.deepEqual(reservation.services, ['BRK']);
    const changed = await modify(t, reservation.id, reservation.accessToken, { services: ['TRANSFER'] });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().total.amount, 43000 + 4550);
  });
});
