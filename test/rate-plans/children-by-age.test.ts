import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { handleRatePlanNotif } from '../../src/channels/alpinebits/rate-plans.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import {
  addDays,
  assertProblem,
  type Json,
  quoteOk,
  requestQuote,
  search,
  stay,
} from '../booking/helpers.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { skipWithoutXmllint, validateAlpineBits } from '../helpers/xsd-validate.ts';
import { planHotel } from './plan-hotel.ts';

/**
 * Children by age, as the reference engine (rtapp) prices them: plans shaped as the LTS plans in
 * rtapp's own tests (50.00 a person a night from one to two adults, 50.00 an additional adult,
 * maybe 50.00 an additional child below 10 or 18), a room of occupancy 1..2..3, seven nights.
 *
 * What rtapp's engine computes for them (lib/engine.js, step 1b: "all guests are considered adults
 * - however, children are present" and "guests >= MinAge are to be considered adults - however a
 * child … is present" both skip the plan):
 * - adults' Occupancy without MinAge: every guest is an adult, a stay with children has no price;
 * - adults' Occupancy MinAge 10: a child of 5 is a child (1050), a child of 15 has no price;
 * - adults' Occupancy MinAge 18: a child of 5 or 15 is a child (1050).
 * The totals for adults alone are 700 (two) and 1050 (three). rtapp refuses those stays even when
 * an AdditionalGuestAmount band would price the child (checked by running rtapp on such variants). A "child" at or above the adults'
 * MinAge is not promoted to an adult: the booker says who is a child, and rtapp refuses the stay.
 */
const rate = (start: string, end: string, childAmount: string) =>
  `<Rate Start="${start}" End="${end}" InvTypeCode="double">
          <BaseByGuestAmts>
            <BaseByGuestAmt NumberOfGuests="1" AmountAfterTax="50.00" AgeQualifyingCode="10"/>
            <BaseByGuestAmt NumberOfGuests="2" AmountAfterTax="50.00" AgeQualifyingCode="10"/>
          </BaseByGuestAmts>
          <AdditionalGuestAmounts>
            <AdditionalGuestAmount Amount="50.00" AgeQualifyingCode="10"/>${childAmount}
          </AdditionalGuestAmounts>
        </Rate>`;
const plan = (code: string, start: string, end: string, childAmount: string, occupancy: string) =>
  `<RatePlan RatePlanNotifType="New" CurrencyCode="EUR" RatePlanCode="${code}" RatePlanID="${code}" RatePlanQualifier="true">
      <Rates>
        <Rate RateTimeUnit="Day" UnitMultiplier="1">
          <BaseByGuestAmts><BaseByGuestAmt Type="7"/></BaseByGuestAmts>
          <MealsIncluded MealPlanCodes="3" MealPlanIndicator="true"/>
        </Rate>
        ${rate(start, end, childAmount)}
      </Rates>
      <Offers><Offer><OfferRules><OfferRule>${occupancy}</OfferRule></OfferRules></Offer></Offers>
      <Description Name="title"><Text TextFormat="PlainText" Language="en">Standard rate</Text></Description>
    </RatePlan>`;

const hotelDef = () => planHotel({ maxAdults: 3, maxChildren: 2, maxOccupancy: 3 });

describe('children by age on LTS-shaped plans, as rtapp prices them', { skip: skipWithoutXmllint }, () => {
  let t: TestApp;
  let hotel: HotelDef;
  let checkIn: string;
  const NIGHTS = 7;

  before(async () => {
    hotel = hotelDef();
    t = await startTestApp({ hotels: [hotel] });
    checkIn = stay(t, 30, 1).checkIn;
    const end = addDays(checkIn, 60);
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<OTA_HotelRatePlanNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.000">
  <RatePlans HotelCode="${hotel.id}">
    ${plan('all-adults', checkIn, end, '', '<Occupancy AgeQualifyingCode="10"/>')}
    ${plan(
      'adults-from-10',
      checkIn,
      end,
      '\n            <AdditionalGuestAmount Amount="50.00" AgeQualifyingCode="8" MaxAge="10"/>',
      '<Occupancy AgeQualifyingCode="10" MinAge="10"/><Occupancy AgeQualifyingCode="8"/>',
    )}
    ${plan(
      'all-adults-child-band',
      checkIn,
      end,
      '\n            <AdditionalGuestAmount Amount="40.00" AgeQualifyingCode="8" MaxAge="18"/>',
      '<Occupancy AgeQualifyingCode="10"/>',
    )}
    ${plan(
      'adults-from-10-band-18',
      checkIn,
      end,
      '\n            <AdditionalGuestAmount Amount="50.00" AgeQualifyingCode="8" MaxAge="18"/>',
      '<Occupancy AgeQualifyingCode="10" MinAge="10"/><Occupancy AgeQualifyingCode="8"/>',
    )}
    ${plan(
      'adults-from-18',
      checkIn,
      end,
      '\n            <AdditionalGuestAmount Amount="50.00" AgeQualifyingCode="8" MaxAge="18"/>',
      '<Occupancy AgeQualifyingCode="10" MinAge="18"/><Occupancy AgeQualifyingCode="8"/>',
    )}
  </RatePlans>
</OTA_HotelRatePlanNotifRQ>`;
    const asSent = await validateAlpineBits(xml);
    assert.ok(asSent.valid, `the request is not schema-valid: ${asSent.errors}`);
    const res = await handleRatePlanNotif(
      { db: t.db, catalog: t.runtime.catalog, audit: SYSTEM_SCOPE },
      { xml, clientId: 'pms', auth: { hotelIds: null } },
    );
    assert.equal(res.status, 200);
    assert.match(res.xml, /<Success\/>/, res.xml);
  });
  after(() => t.close());

  const party = (adults: number, children: number[]) => ({
    hotelId: hotel.id,
    checkIn,
    checkOut: addDays(checkIn, NIGHTS),
    adults,
    children,
  });
  async function offerOf(planId: string, adults: number, children: number[]): Promise<Json | undefined> {
    const res = await search(t, party(adults, children));
    assert.equal(res.statusCode, 200, res.body);
    return res.json().offers.find((o: Json) => o.ratePlan.id === planId);
  }

  // [plan, adults, children's ages, rtapp's total in euros or null for no price]
  const cases: [string, number, number[], number | null][] = [
    ['all-adults', 2, [], 700],
    ['all-adults', 3, [], 1050],
    ['all-adults', 2, [5], null],
    ['all-adults', 2, [15], null],
    ['adults-from-10', 2, [], 700],
    ['adults-from-10', 3, [], 1050],
    ['adults-from-10', 2, [5], 1050],
    ['adults-from-10', 2, [15], null],
    // the same refusals when a child band would price the child: the Occupancy rule decides first
    ['all-adults-child-band', 2, [5], null],
    ['all-adults-child-band', 2, [15], null],
    ['adults-from-10-band-18', 2, [9], 1050],
    ['adults-from-10-band-18', 2, [15], null],
    ['adults-from-18', 2, [], 700],
    ['adults-from-18', 3, [], 1050],
    ['adults-from-18', 2, [5], 1050],
    ['adults-from-18', 2, [15], 1050],
  ];
  for (const [planId, adults, children, total] of cases) {
    const who = `${adults} adults${children.length ? ` and a child of ${children[0]}` : ''}`;
    it(`${planId}, ${who}: ${total === null ? 'no price' : total}`, async () => {
      const offer = await offerOf(planId, adults, children);
      if (total === null) {
        assert.equal(offer, undefined, 'rtapp finds no price for this stay');
        const quote = await requestQuote(t, {
          ...party(adults, children),
          roomTypeId: 'double',
          ratePlanId: planId,
        });
        assertProblem(quote, 409, 'no_availability');
        return;
      }
      assert.ok(offer, 'rtapp prices this stay');
      assert.equal(offer.total.amount, total * 100);
      const quoted = await quoteOk(t, {
        ...party(adults, children),
        roomTypeId: 'double',
        ratePlanId: planId,
      });
      assert.equal(quoted.total.amount, total * 100);
    });
  }
});
