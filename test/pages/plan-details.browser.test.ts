import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { handleRatePlanNotif } from '../../src/channels/alpinebits/rate-plans.ts';
import { addDays } from '../../src/dates/dates.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import {
  DESKTOP,
  launchChromium,
  openPage,
  type PagesApp,
  screenshot,
  seriousA11yViolations,
  skipWithoutChromium,
  startPagesApp,
} from '../helpers/browser.ts';
import { daysFromNow } from '../helpers/test-app.ts';
import { planHotel } from '../rate-plans/plan-hotel.ts';

// /book/{hotel} showing what a guest pays for under a plan a PMS sent (docs/api.md §9.3): the
// plan's texts, meals, the price per night with the free night, the mandatory supplement and an
// optional extra, in the guest's language, from the message's descriptions.

const checkIn = daysFromNow(30);
const checkOut = addDays(checkIn, 3);
const hotel = planHotel(
  { maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
  { name: 'Harbour View', services: [] },
);

const texts = (name: string, en: string, pt: string) =>
  `<Description Name="${name}"><Text TextFormat="PlainText" Language="en">${en}</Text><Text TextFormat="PlainText" Language="pt">${pt}</Text></Description>`;
const message = `<?xml version="1.0" encoding="UTF-8"?>
<OTA_HotelRatePlanNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.000">
  <RatePlans HotelCode="${hotel.id}">
    <RatePlan RatePlanNotifType="New" CurrencyCode="EUR" RatePlanCode="HB">
      <Rates>
        <Rate RateTimeUnit="Day" UnitMultiplier="1">
          <BaseByGuestAmts><BaseByGuestAmt Type="7"/></BaseByGuestAmts>
          <MealsIncluded MealPlanIndicator="true" MealPlanCodes="12"/>
        </Rate>
        <Rate InvTypeCode="double" Start="${addDays(checkIn, -5)}" End="${addDays(checkIn, 20)}">
          <BaseByGuestAmts>
            <BaseByGuestAmt NumberOfGuests="1" AgeQualifyingCode="10" AmountAfterTax="110"/>
            <BaseByGuestAmt NumberOfGuests="2" AgeQualifyingCode="10" AmountAfterTax="80"/>
          </BaseByGuestAmts>
        </Rate>
      </Rates>
      <Supplements>
        <Supplement InvType="EXTRA" InvCode="CLEAN" AddToBasicRateIndicator="true" MandatoryIndicator="true" ChargeTypeCode="18">
          ${texts('title', 'Final cleaning', 'Limpeza final')}
        </Supplement>
        <Supplement InvType="EXTRA" InvCode="CLEAN" Amount="30" Start="${addDays(checkIn, -5)}" End="${addDays(checkIn, 20)}"/>
        <Supplement InvType="EXTRA" InvCode="PARK" AddToBasicRateIndicator="true" MandatoryIndicator="false" ChargeTypeCode="19">
          ${texts('title', 'Parking', 'Estacionamento')}
        </Supplement>
        <Supplement InvType="EXTRA" InvCode="PARK" Amount="10" Start="${addDays(checkIn, -5)}" End="${addDays(checkIn, 20)}"/>
      </Supplements>
      <Offers>
        <Offer><OfferRules><OfferRule><Occupancy AgeQualifyingCode="10" MinAge="18"/><Occupancy AgeQualifyingCode="8"/></OfferRule></OfferRules></Offer>
        <Offer><Discount Percent="100" NightsRequired="3" NightsDiscounted="1"/></Offer>
      </Offers>
      ${texts('title', 'Half board', 'Meia pensão')}
      ${texts('intro', 'A four-course dinner every evening.', 'Um jantar de quatro pratos todas as noites.')}
    </RatePlan>
  </RatePlans>
</OTA_HotelRatePlanNotifRQ>`;

describe('booking page: a PMS plan’s details in the guest’s language', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  before(async () => {
    [app, browser] = await Promise.all([startPagesApp([hotel]), launchChromium()]);
    const res = await handleRatePlanNotif(
      { db: app.t.db, catalog: app.t.runtime.catalog, audit: SYSTEM_SCOPE },
      { xml: message, clientId: 'pms', auth: { hotelIds: null } },
    );
    assert.match(res.xml, /<Success\/>/, res.xml);
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
  });

  it('per night with the free night, meals, the offer, the supplement and an extra, in Portuguese', async () => {
    const { page, errors } = await openPage(browser, app.baseUrl, { ...DESKTOP, locale: 'pt-PT' });
    await page.goto(`${app.baseUrl}/book/${hotel.id}`);
    await page.getByLabel('Entrada').fill(checkIn);
    await page.getByLabel('Saída').fill(checkOut);
    await page.getByRole('button', { name: 'Ver preços' }).click();

    const offer = page.locator('.offer').filter({ hasText: 'Double Room · Meia pensão' });
    await offer.waitFor();
    const card = await offer.innerText();
    assert.match(card, /Um jantar de quatro pratos todas as noites\./);
    assert.match(card, /Inclui: pequeno-almoço, jantar\./);
    assert.match(card, /Oferta aplicada: 1 noite grátis\./);
    // two guests at 80 for two nights, the third free, and the final cleaning 30
    assert.match(await offer.locator('.total').innerText(), /^350,00\s€$/);
    // the parking, per room per night, is not charged on the free night: 2 × 10
    assert.match(card, /Acrescentar a esta tarifa/);
    assert.match(card, /Estacionamento\s+\+ 20,00\s€/);

    await offer.getByText('Preço por noite').click();
    const nights = await offer.locator('.nightly li').allInnerTexts();
    assert.equal(nights.length, 3);
    assert.match(nights[0] ?? '', /160,00\s€/);
    assert.match(nights[2] ?? '', /0,00\s€ · grátis/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, 'book-plan-details-pt');

    await offer.getByLabel(/Estacionamento/).check();
    await offer.getByRole('button', { name: /Escolher/ }).click();
    await page.getByRole('heading', { name: 'A sua estadia' }).waitFor();
    const stay = await page.locator('main').innerText();
    assert.match(stay, /Oferta aplicada: 1 noite grátis\./);
    const lines = await page.locator('table.lines').innerText();
    assert.match(lines, /Limpeza final\s+30,00\s€/);
    assert.match(lines, /Estacionamento\s+20,00\s€/);
    assert.match(lines, /370,00\s€/);
    assert.doesNotMatch(lines, /Final cleaning|Parking/, 'the supplements’ names are the Portuguese ones');
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.deepEqual(errors, []);
  });
});
