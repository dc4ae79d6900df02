import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { handleRatePlanNotif } from '../../src/channels/alpinebits/rate-plans.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import { addDays, type Json, quoteOk, reserve, search, stay } from '../booking/helpers.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { skipWithoutXmllint, validateAlpineBits } from '../helpers/xsd-validate.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { planHotel } from './plan-hotel.ts';

/**
 * OTA_HotelRatePlanNotif:RatePlans (API.md 11.3) handed straight to its handler, as the AlpineBits
 * endpoint's registry will: the specification's sample message (HotelData 4.5, "Frangart Inn",
 * its dates moved ahead) is accepted, stored, and priced by search and quote as its comments say.
 */
function sampleMessage(hotelId: string, start: string, type = 'New'): string {
  const end = addDays(start, 5);
  return `<?xml version="1.0" encoding="UTF-8"?>
<OTA_HotelRatePlanNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.000">
  <RatePlans HotelCode="${hotelId}" HotelName="Frangart Inn">
    <RatePlan RatePlanNotifType="${type}" CurrencyCode="EUR" RatePlanCode="Rate1-4-HB">
      <BookingRules>
        <BookingRule Start="${start}" End="${addDays(start, 45)}">
          <LengthsOfStay>
            <LengthOfStay Time="5" TimeUnit="Day" MinMaxMessageType="SetMinLOS"/>
            <LengthOfStay Time="5" TimeUnit="Day" MinMaxMessageType="SetMaxLOS"/>
          </LengthsOfStay>
          <DOW_Restrictions>
            <ArrivalDaysOfWeek Mon="1" Tue="1" Weds="1" Thur="1" Fri="1" Sat="1" Sun="1"/>
            <DepartureDaysOfWeek Mon="1" Tue="1" Weds="1" Thur="1" Fri="1" Sat="1" Sun="1"/>
          </DOW_Restrictions>
          <RestrictionStatus Restriction="Master" Status="Open"/>
        </BookingRule>
      </BookingRules>
      <Rates>
        <Rate RateTimeUnit="Day" UnitMultiplier="1">
          <BaseByGuestAmts><BaseByGuestAmt Type="7"/></BaseByGuestAmts>
          <MealsIncluded MealPlanIndicator="true" MealPlanCodes="12"/>
        </Rate>
        <Rate InvTypeCode="double" Start="${start}" End="${end}">
          <BaseByGuestAmts>
            <BaseByGuestAmt NumberOfGuests="1" AgeQualifyingCode="10" AmountAfterTax="106"/>
            <BaseByGuestAmt NumberOfGuests="2" AgeQualifyingCode="10" AmountAfterTax="96"/>
          </BaseByGuestAmts>
          <AdditionalGuestAmounts>
            <AdditionalGuestAmount AgeQualifyingCode="10" Amount="76.8"/>
            <AdditionalGuestAmount AgeQualifyingCode="8" MaxAge="3" Amount="0"/>
            <AdditionalGuestAmount AgeQualifyingCode="8" MinAge="3" MaxAge="6" Amount="38.4"/>
            <AdditionalGuestAmount AgeQualifyingCode="8" MinAge="6" MaxAge="10" Amount="48"/>
            <AdditionalGuestAmount AgeQualifyingCode="8" MinAge="10" MaxAge="16" Amount="67.2"/>
          </AdditionalGuestAmounts>
        </Rate>
      </Rates>
      <Supplements>
        <Supplement InvType="EXTRA" InvCode="0x539" AddToBasicRateIndicator="true" MandatoryIndicator="true" ChargeTypeCode="18">
          <Description Name="title">
            <Text TextFormat="PlainText" Language="de">Endreinigung</Text>
            <Text TextFormat="PlainText" Language="en">Final cleaning</Text>
          </Description>
        </Supplement>
        <Supplement InvType="EXTRA" InvCode="0x539" Amount="20" Start="${addDays(start, 200)}" End="${addDays(start, 210)}"/>
      </Supplements>
      <Offers>
        <Offer>
          <OfferRules>
            <OfferRule>
              <Occupancy AgeQualifyingCode="10" MinAge="16"/>
              <Occupancy AgeQualifyingCode="8"/>
            </OfferRule>
          </OfferRules>
        </Offer>
      </Offers>
      <Description Name="title">
        <Text TextFormat="PlainText" Language="en">Half board</Text>
        <Text TextFormat="PlainText" Language="pt">Meia pensão</Text>
      </Description>
    </RatePlan>
  </RatePlans>
</OTA_HotelRatePlanNotifRQ>`;
}

const hotelDef = () => planHotel();

describe('OTA_HotelRatePlanNotif:RatePlans', () => {
  let t: TestApp;
  let hotel: HotelDef;
  const notify = (xml: string, hotelIds: string[] | null = null) =>
    handleRatePlanNotif(
      { db: t.db, catalog: t.runtime.catalog, audit: SYSTEM_SCOPE },
      { xml, clientId: 'pms', auth: { hotelIds } },
    );
  async function schemaValid(xml: string) {
    // The pricing checks run everywhere; the schema check where xmllint is (CI installs it).
    if (skipWithoutXmllint) return;
    const result = await validateAlpineBits(xml);
    assert.ok(result.valid, `${result.errors}\n${xml}`);
  }

  before(async () => {
    hotel = hotelDef();
    t = await startTestApp({ hotels: [hotel] });
  });
  after(() => t.close());

  it('accepts the specification sample and prices it per person, by age band', async () => {
    const { checkIn, checkOut } = stay(t, 30, 5);
    const res = await notify(sampleMessage(hotel.id, checkIn));
    assert.equal(res.status, 200);
    assert.match(res.xml, /<Success\/>/);
    await schemaValid(res.xml);

    const found = await search(t, { hotelId: hotel.id, checkIn, checkOut, adults: 2, children: [4, 12] });
    assert.equal(found.statusCode, 200, found.body);
    const offer = found.json().offers.find((o: Json) => o.ratePlan.id === 'Rate1-4-HB');
    assert.ok(offer, found.body);
    // (2 × 96 + 38.40 + 67.20) × 5 nights; the cleaning's only price is for other dates
    assert.equal(offer.total.amount, 148800);
    assert.equal(offer.ratePlan.name, 'Half board');
    assert.deepEqual(offer.cancellationPolicy.freeCancellationUntil !== null, true);

    const quote = await quoteOk(t, {
      hotelId: hotel.id,
      checkIn,
      checkOut,
      adults: 3,
      roomTypeId: 'double',
      ratePlanId: 'Rate1-4-HB',
    });
    assert.equal(quote.total.amount, (19200 + 7680) * 5);
  });

  it('refuses what the booking rules forbid: restriction_window', async () => {
    const { checkIn } = stay(t, 30, 5);
    const res = await search(t, { hotelId: hotel.id, checkIn, checkOut: addDays(checkIn, 4), adults: 2 });
    assert.equal(res.statusCode, 200, 'the catalogue plan still sells');
    assert.ok(!res.json().offers.some((o: Json) => o.ratePlan.id === 'Rate1-4-HB'));
  });

  it('Overlay changes the given dates only; Remove withdraws the plan', async () => {
    const { checkIn, checkOut } = stay(t, 30, 5);
    const overlay = `<?xml version="1.0" encoding="UTF-8"?>
<OTA_HotelRatePlanNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.000">
  <RatePlans HotelCode="${hotel.id}">
    <RatePlan RatePlanNotifType="Overlay" CurrencyCode="EUR" RatePlanCode="Rate1-4-HB">
      <Rates>
        <Rate InvTypeCode="double" Start="${checkIn}" End="${checkIn}">
          <BaseByGuestAmts>
            <BaseByGuestAmt NumberOfGuests="1" AgeQualifyingCode="10" AmountAfterTax="106"/>
            <BaseByGuestAmt NumberOfGuests="2" AgeQualifyingCode="10" AmountAfterTax="100"/>
          </BaseByGuestAmts>
        </Rate>
      </Rates>
    </RatePlan>
  </RatePlans>
</OTA_HotelRatePlanNotifRQ>`;
    const res = await notify(overlay);
    assert.match(res.xml, /<Success\/>/, res.xml);
    const quote = await quoteOk(t, {
      hotelId: hotel.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'Rate1-4-HB',
    });
    assert.equal(quote.total.amount, 20000 + 19200 * 4);

    const remove = `<?xml version="1.0" encoding="UTF-8"?>
<OTA_HotelRatePlanNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.000">
  <RatePlans HotelCode="${hotel.id}"><RatePlan RatePlanNotifType="Remove" CurrencyCode="EUR" RatePlanCode="Rate1-4-HB"/></RatePlans>
</OTA_HotelRatePlanNotifRQ>`;
    const removed = await notify(remove);
    assert.match(removed.xml, /<Success\/>/, removed.xml);
    const found = await search(t, { hotelId: hotel.id, checkIn, checkOut, adults: 2 });
    assert.ok(!found.json().offers.some((o: Json) => o.ratePlan.id === 'Rate1-4-HB'));
  });

  it('a reservation checks the booking rules of the plan as they stand at booking time', async () => {
    const { checkIn, checkOut } = stay(t, 120, 5);
    assert.match((await notify(sampleMessage(hotel.id, checkIn))).xml, /<Success\/>/);
    const quote = await quoteOk(t, {
      hotelId: hotel.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'Rate1-4-HB',
    });
    const closed = sampleMessage(hotel.id, checkIn).replace('Status="Open"', 'Status="Close"');
    assert.match((await notify(closed)).xml, /<Success\/>/);
    const res = await reserve(t, quote.id);
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().errors[0].rule, 'stop_sell');
  });

  it('stored plans survive a restart', async (ctx) => {
    const { checkIn, checkOut } = stay(t, 60, 5);
    assert.match((await notify(sampleMessage(hotel.id, checkIn))).xml, /<Success\/>/);
    const again = await startTestApp(ctx, { hotels: [hotel] });
    const res = await search(again, { hotelId: hotel.id, checkIn, checkOut, adults: 2 });
    assert.ok(
      res.json().offers.some((o: Json) => o.ratePlan.id === 'Rate1-4-HB' && o.total.amount === 96000),
      res.body,
    );
  });

  it('answers errors the schema allows: unknown hotel, unknown room type, DTD, foreign hotel', async () => {
    const { checkIn } = stay(t, 30, 5);
    const unknownHotel = await notify(sampleMessage('nowhere', checkIn));
    assert.match(unknownHotel.xml, /Code="392"/);
    await schemaValid(unknownHotel.xml);
    const notMine = await notify(sampleMessage(hotel.id, checkIn), ['other-hotel']);
    assert.match(notMine.xml, /Code="392"/);
    const room = await notify(
      sampleMessage(hotel.id, checkIn).replace('InvTypeCode="double"', 'InvTypeCode="villa"'),
    );
    assert.match(room.xml, /Code="402"/);
    await schemaValid(room.xml);
    const dtd = await notify(
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]>${sampleMessage(hotel.id, checkIn).replace(/^<\?xml[^>]*>/, '')}`,
    );
    assert.match(dtd.xml, /Code="450"/);
    await schemaValid(dtd.xml);
    const broken = await notify('<OTA_HotelRatePlanNotifRQ><RatePlans');
    assert.match(broken.xml, /Code="450"/);
  });
});

describe('the calendar shows a stored plan at its standard occupancy (API.md 7.4)', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({}, [hotelDef(), makeHotel()]);
  });
  after(() => app.t.close());

  it('per night, only where the plan has a rate', async () => {
    const hotel = app.hotels[0];
    const { checkIn } = stay(app.t, 30, 5);
    const res = await handleRatePlanNotif(
      { db: app.t.db, catalog: app.t.runtime.catalog, audit: SYSTEM_SCOPE },
      { xml: sampleMessage(hotel.id, checkIn), clientId: 'pms', auth: { hotelIds: null } },
    );
    assert.match(res.xml, /<Success\/>/);
    const to = addDays(checkIn, 6);
    const calendar = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/hotels/${hotel.id}/calendar?from=${checkIn}&to=${to}`,
      headers: auth(app.root),
    });
    assert.equal(calendar.statusCode, 200, calendar.body);
    const nights = calendar.json().roomTypes[0].nights;
    assert.deepEqual(nights[0].prices['Rate1-4-HB'], {
      base: 19200,
      includedAdults: 2,
      extraAdult: 7680,
      child: 0,
    });
    assert.equal(nights[6].prices['Rate1-4-HB'], undefined);
    assert.ok(nights[6].prices.flex);
  });
});

describe('a stored plan reaches every process within a second', () => {
  let a: TestApp;
  let b: TestApp;
  let hotel: HotelDef;
  before(async () => {
    hotel = hotelDef();
    a = await startTestApp({ hotels: [hotel] });
    b = await startTestApp({ hotels: [hotel] });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it('search of another app sees a plan stored after it had read the hotel', async () => {
    const { checkIn, checkOut } = stay(a, 90, 5);
    const offered = async () =>
      (await search(a, { hotelId: hotel.id, checkIn, checkOut, adults: 2 }))
        .json()
        .offers.some((o: Json) => o.ratePlan.id === 'Rate1-4-HB');
    assert.equal(await offered(), false);
    const res = await handleRatePlanNotif(
      { db: b.db, catalog: b.runtime.catalog, audit: SYSTEM_SCOPE },
      { xml: sampleMessage(hotel.id, checkIn), clientId: 'pms', auth: { hotelIds: null } },
    );
    assert.match(res.xml, /<Success\/>/);
    const deadline = Date.now() + 1000;
    let seen = await offered();
    while (!seen && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await offered();
    }
    assert.ok(seen, 'the other process did not see the stored plan within 1 s');
  });
});
