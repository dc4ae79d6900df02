import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { handleRatePlanNotif, RATE_PLAN_NOTIF_ACTION } from '../../src/channels/alpinebits/rate-plans.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import { addDays, type Json, quoteOk, search, stay } from '../booking/helpers.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { skipWithoutXmllint, validateAlpineBits } from '../helpers/xsd-validate.ts';
import { planHotel } from './plan-hotel.ts';

/**
 * Messages shaped as the specification's RatePlans samples (HotelData 2022-10 section 4.5: the
 * "Frangart Inn" plan with its offer for kids, a "7 nights for 6" offer, weekday rates, a supplement
 * charged on some weekdays, a weekly rate, joined rate plans), each checked against the 2022-10
 * schema as sent and answered, and priced as the specification's text says. Every expected total
 * is worked out here by hand, from the amounts in the message.
 */
const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<OTA_HotelRatePlanNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.000">`;
const message = (hotelId: string, ...plans: string[]) =>
  `${HEAD}\n  <RatePlans HotelCode="${hotelId}">\n${plans.join('\n')}\n  </RatePlans>\n</OTA_HotelRatePlanNotifRQ>`;
const title = (text: string) =>
  `<Description Name="title"><Text TextFormat="PlainText" Language="en">${text}</Text></Description>`;
/** The first Offer: adults from 16 (or 18), children welcome. */
const offerRule = (adultAge = 16) =>
  `<Offer><OfferRules><OfferRule><Occupancy AgeQualifyingCode="10" MinAge="${adultAge}"/><Occupancy AgeQualifyingCode="8"/></OfferRule></OfferRules></Offer>`;
const perRoom = (code: string, body: string, extra = '') =>
  `<RatePlan RatePlanNotifType="New" CurrencyCode="EUR" RatePlanCode="${code}"${extra}>${body}</RatePlan>`;
const staticRate = (type: 7 | 25, unit = 1) =>
  `<Rate RateTimeUnit="Day" UnitMultiplier="${unit}"><BaseByGuestAmts><BaseByGuestAmt Type="${type}"/></BaseByGuestAmts></Rate>`;
const datedRate = (start: string, end: string, one: string, two: string, attributes = '') =>
  `<Rate InvTypeCode="double" Start="${start}" End="${end}"${attributes}>
        <BaseByGuestAmts>
          <BaseByGuestAmt NumberOfGuests="1" AgeQualifyingCode="10" AmountAfterTax="${one}"/>
          <BaseByGuestAmt NumberOfGuests="2" AgeQualifyingCode="10" AmountAfterTax="${two}"/>
        </BaseByGuestAmts>
      </Rate>`;

/** The first date on or after `date` that is that weekday (0 Sunday … 6 Saturday). */
function next(date: string, weekday: number): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, (weekday - day + 7) % 7);
}

const hotelDef = () => planHotel();

describe('the specification’s sample RatePlans messages, priced as their comments say', {
  skip: skipWithoutXmllint,
}, () => {
  let t: TestApp;
  let hotel: HotelDef;
  let start: string;
  async function send(xml: string): Promise<string> {
    const asSent = await validateAlpineBits(xml);
    assert.ok(asSent.valid, `the request is not schema-valid: ${asSent.errors}`);
    const res = await handleRatePlanNotif(
      { db: t.db, catalog: t.runtime.catalog, audit: SYSTEM_SCOPE },
      { xml, clientId: 'pms', auth: { hotelIds: null } },
    );
    assert.equal(res.status, 200);
    const answered = await validateAlpineBits(res.xml);
    assert.ok(answered.valid, `${answered.errors}\n${res.xml}`);
    return res.xml;
  }
  const offerOf = async (
    plan: string,
    checkIn: string,
    nights: number,
    adults: number,
    children: number[] = [],
  ) => {
    const res = await search(t, {
      hotelId: hotel.id,
      checkIn,
      checkOut: addDays(checkIn, nights),
      adults,
      children,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().offers.find((o: Json) => o.ratePlan.id === plan);
  };

  before(async () => {
    hotel = hotelDef();
    t = await startTestApp({ hotels: [hotel] });
    start = stay(t, 30, 1).checkIn;
  });
  after(() => t.close());

  it('Frangart Inn with its offer for kids: one child under 5 stays free', async () => {
    const end = addDays(start, 40);
    const xml = message(
      hotel.id,
      perRoom(
        'Rate1-4-HB',
        `<Rates>${staticRate(7)}
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
      </Rate></Rates>
      <Offers>${offerRule()}
        <Offer><Discount Percent="100"/><Guests><Guest AgeQualifyingCode="8" MaxAge="5" MinCount="1" FirstQualifyingPosition="1" LastQualifyingPosition="1"/></Guests></Offer>
      </Offers>${title('Half board')}`,
      ),
    );
    assert.match(await send(xml), /<Success\/>/);
    const offer = await offerOf('Rate1-4-HB', start, 5, 2, [4, 12]);
    // two adults at 96 each, the child of 12 at 67.20, the child of 4 free (else 38.40): 5 nights
    assert.equal(offer.total.amount, (2 * 9600 + 6720) * 5);
    assert.equal(offer.plan.freeChildren, 1);
    // without a child under 5 the offer does not apply: 2 × 96 + 38.40 (age 5) + 67.20
    const older = await offerOf('Rate1-4-HB', start, 5, 2, [5, 12]);
    assert.equal(older.total.amount, (2 * 9600 + 3840 + 6720) * 5);
    assert.equal(older.plan.freeChildren, 0);
  });

  it('"7 nights for 6": the seventh night is free; with a DiscountPattern every seventh', async () => {
    const end = addDays(start, 60);
    const plan = (code: string, pattern: string) =>
      perRoom(
        code,
        `<Rates>${staticRate(25)}${datedRate(start, end, '80', '100')}</Rates>
      <Offers>${offerRule(18)}
        <Offer><Discount Percent="100" NightsRequired="7" NightsDiscounted="1"${pattern}/></Offer>
      </Offers>${title('7 for 6')}`,
      );
    assert.match(
      await send(message(hotel.id, plan('seven-six', ''), plan('weekly-free', ' DiscountPattern="0000001"'))),
      /<Success\/>/,
    );
    // per room: 100 a night for two
    assert.equal((await offerOf('seven-six', start, 6, 2)).total.amount, 6 * 10000);
    const seven = await offerOf('seven-six', start, 7, 2);
    assert.equal(seven.total.amount, 6 * 10000);
    assert.deepEqual(seven.plan.freeNights, [addDays(start, 6)]);
    assert.equal(seven.nightly[6].amount.amount, 0);
    // without a pattern only one night of a longer stay is free; with it, every seventh
    assert.equal((await offerOf('seven-six', start, 14, 2)).total.amount, 13 * 10000);
    assert.equal((await offerOf('weekly-free', start, 14, 2)).total.amount, 12 * 10000);
    assert.equal((await offerOf('seven-six', start, 7, 1)).total.amount, 6 * 8000);
  });

  it('weekday rates (Rate Mon…Sun) and a supplement charged on weekend nights (ALPINEBITSDOW)', async () => {
    const end = addDays(start, 60);
    const xml = message(
      hotel.id,
      perRoom(
        'weekends',
        `<Rates>${staticRate(25)}
      ${datedRate(start, end, '80', '100', ' Mon="1" Tue="1" Weds="1" Thur="1" Fri="0" Sat="0" Sun="1"')}
      ${datedRate(start, end, '120', '150', ' Fri="1" Sat="1"')}</Rates>
      <Supplements>
        <Supplement InvType="EXTRA" InvCode="CITYTAX" AddToBasicRateIndicator="true" MandatoryIndicator="true" ChargeTypeCode="21">
          <PrerequisiteInventory InvCode="0000011" InvType="ALPINEBITSDOW"/>
          ${title('Weekend levy')}
        </Supplement>
        <Supplement InvType="EXTRA" InvCode="CITYTAX" Amount="2.5" Start="${start}" End="${end}"/>
      </Supplements>${title('Weekend rates')}`,
      ),
    );
    assert.match(await send(xml), /<Success\/>/);
    const thursday = next(addDays(start, 1), 4);
    const offer = await offerOf('weekends', thursday, 4, 2);
    // Thursday 100, Friday 150, Saturday 150, Sunday 100; the levy on the Saturday and Sunday
    // nights: 2 guests × 2.50 × 2 nights
    assert.deepEqual(
      offer.nightly.map((n: Json) => n.amount.amount),
      [10000, 15000, 15000, 10000],
    );
    assert.equal(offer.total.amount, 50000 + 1000);
    const quote = await quoteOk(t, {
      hotelId: hotel.id,
      checkIn: thursday,
      checkOut: addDays(thursday, 4),
      adults: 1,
      roomTypeId: 'double',
      ratePlanId: 'weekends',
    });
    // one guest: 80, 120, 120, 80 and the levy 2.50 × 2 nights
    assert.equal(quote.total.amount, 40000 + 500);
    assert.deepEqual(
      quote.lines.filter((l: Json) => l.type === 'service').map((l: Json) => [l.code, l.amount.amount]),
      [['CITYTAX', 500]],
    );
  });

  it('a weekly rate (UnitMultiplier 7): a shorter stay pays its share', async () => {
    const end = addDays(start, 60);
    const xml = message(
      hotel.id,
      perRoom(
        'weekly',
        `<Rates>${staticRate(25, 7)}${datedRate(start, end, '560', '630')}</Rates>${title('By the week')}`,
      ),
    );
    assert.match(await send(xml), /<Success\/>/);
    assert.equal((await offerOf('weekly', start, 7, 2)).total.amount, 63000);
    // 630 × 3/7
    assert.equal((await offerOf('weekly', start, 3, 2)).total.amount, 27000);
  });

  it('joined rate plans: a master priced as any plan, derived plans with their own rates and the master’s offers', async () => {
    const end = addDays(start, 60);
    const perPerson = (code: string, join: string, meals: string, one: string, two: string, rest: string) =>
      perRoom(
        code,
        `<Rates><Rate RateTimeUnit="Day" UnitMultiplier="1"><BaseByGuestAmts><BaseByGuestAmt Type="7"/></BaseByGuestAmts><MealsIncluded MealPlanIndicator="true" MealPlanCodes="${meals}"/></Rate>
      <Rate InvTypeCode="double" Start="${start}" End="${end}">
        <BaseByGuestAmts>
          <BaseByGuestAmt NumberOfGuests="1" AgeQualifyingCode="10" AmountAfterTax="${one}"/>
          <BaseByGuestAmt NumberOfGuests="2" AgeQualifyingCode="10" AmountAfterTax="${two}"/>
        </BaseByGuestAmts>
      </Rate></Rates>${rest}`,
        join,
      );
    const master = perPerson(
      'g1-hb',
      ' RatePlanID="g1" RatePlanQualifier="true"',
      '12',
      '60',
      '50',
      `<Offers>${offerRule(10)}<Offer><Discount Percent="100" NightsRequired="7" NightsDiscounted="1"/></Offer></Offers>${title('Half board')}`,
    );
    const derived = perPerson('g1-bb', ' RatePlanID="g1" RatePlanQualifier="false"', '3', '48', '40', '');
    // The derived plan first: its master may follow in the same message.
    assert.match(await send(message(hotel.id, derived, master)), /<Success\/>/);
    // per person: the master 50 and the derived plan 40 a night each, for two
    assert.equal((await offerOf('g1-hb', start, 3, 2)).total.amount, 3 * 10000);
    assert.equal((await offerOf('g1-bb', start, 3, 2)).total.amount, 3 * 8000);
    // the master's offer (7 nights for 6) is the derived plan's too
    assert.equal((await offerOf('g1-bb', start, 7, 2)).total.amount, 6 * 8000);
    assert.equal((await offerOf('g1-hb', start, 7, 1)).total.amount, 6 * 6000);

    const refused = async (xml: string, text: RegExp) => {
      const answer = await send(xml);
      assert.match(answer, /<Error Type="13" Code="450">/);
      assert.match(answer, text);
    };
    await refused(
      message(
        hotel.id,
        perPerson('orphan-bb', ' RatePlanID="g2" RatePlanQualifier="false"', '3', '48', '40', ''),
      ),
      /master \(RatePlanID g2/,
    );
    await refused(
      message(
        hotel.id,
        perPerson(
          'g1-fb',
          ' RatePlanID="g1" RatePlanQualifier="false"',
          '1',
          '70',
          '60',
          title('Full board'),
        ),
      ),
      /carries no Offers or Description/,
    );
    await refused(
      message(
        hotel.id,
        perPerson('g1-hb2', ' RatePlanID="g1" RatePlanQualifier="false"', '12', '58', '48', ''),
      ),
      /meal plan is that of g1-hb/,
    );
    await refused(
      message(
        hotel.id,
        perRoom(
          'g1-ro',
          `<Rates>${staticRate(25)}${datedRate(start, end, '80', '100')}</Rates>`,
          ' RatePlanID="g1" RatePlanQualifier="false"',
        ),
      ),
      /charge type/,
    );
    for (const code of ['orphan-bb', 'g1-fb', 'g1-hb2', 'g1-ro'])
      assert.equal(await offerOf(code, start, 2, 2), undefined, `${code} is not stored`);
    assert.ok(RATE_PLAN_NOTIF_ACTION.capabilities.includes('OTA_HotelRatePlanNotif_accept_RatePlanJoin'));
  });
});
