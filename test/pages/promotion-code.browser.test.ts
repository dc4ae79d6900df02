import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { addDays } from '../../src/dates/dates.ts';
import {
  DESKTOP,
  launchChromium,
  openPage,
  type PagesApp,
  seriousA11yViolations,
  skipWithoutChromium,
  startPagesApp,
} from '../helpers/browser.ts';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';

// /book/{hotel} with a promotion code (docs/api.md §13.1): the "have a code?" field, the code shown
// on the offers it applies to and its discount line in the stay's prices, in three languages.

const checkIn = daysFromNow(30);
const checkOut = addDays(checkIn, 2);
const hotel = makeHotel({
  name: 'Harbour View',
  services: [],
  promotions: [{ code: 'SPRING10', name: 'Spring offer', discount: { percent: 10 } }],
});

const LANGUAGES = [
  {
    locale: 'en-GB',
    checkIn: 'Check-in',
    checkOut: 'Check-out',
    search: 'See prices',
    code: 'Have a code?',
    choose: 'Choose',
    stay: 'Your stay',
    applied: 'Code SPRING10 applied: Spring offer',
    line: 'Spring offer (code SPRING10)',
  },
  {
    locale: 'es-ES',
    checkIn: 'Entrada',
    checkOut: 'Salida',
    search: 'Ver precios',
    code: '¿Tiene un código?',
    choose: 'Elegir',
    stay: 'Su estancia',
    applied: 'Código SPRING10 aplicado: Spring offer',
    line: 'Spring offer (código SPRING10)',
  },
  {
    locale: 'pt-PT',
    checkIn: 'Entrada',
    checkOut: 'Saída',
    search: 'Ver preços',
    code: 'Tem um código?',
    choose: 'Escolher',
    stay: 'A sua estadia',
    applied: 'Código SPRING10 aplicado: Spring offer',
    line: 'Spring offer (código SPRING10)',
  },
];

describe('booking page: a promotion code', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  before(async () => {
    [app, browser] = await Promise.all([startPagesApp([hotel]), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
  });

  for (const l of LANGUAGES) {
    it(`takes a code and shows its discount (${l.locale})`, async () => {
      const { page, errors } = await openPage(browser, app.baseUrl, { ...DESKTOP, locale: l.locale });
      await page.goto(`${app.baseUrl}/book/${hotel.id}`);
      await page.getByLabel(l.checkIn, { exact: true }).fill(checkIn);
      await page.getByLabel(l.checkOut, { exact: true }).fill(checkOut);
      await page.getByLabel(l.code).fill('spring10');
      await page.getByRole('button', { name: l.search }).click();

      const offer = page.locator('.offer').filter({ hasText: l.applied }).first();
      await offer.waitFor();
      // 2 nights of the double for 2 adults at 120,00 = 240,00, 10% off, plus 2 × 2 × 2,00 city tax.
      assert.match(await offer.locator('.total').innerText(), /^(€)?\s?224[.,]00(\s€)?$/);
      await offer.getByRole('button', { name: new RegExp(l.choose) }).click();
      await page.getByRole('heading', { name: l.stay }).waitFor();
      const lines = await page.locator('table.lines').innerText();
      assert.ok(lines.includes(l.line), lines);
      assert.match(lines, /-\s?(€\s?)?24[.,]00|−\s?(€\s?)?24[.,]00/);
      assert.deepEqual(await seriousA11yViolations(page), []);
      assert.deepEqual(errors, []);
    });
  }
});
