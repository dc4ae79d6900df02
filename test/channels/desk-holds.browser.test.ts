/**
 * The front desk's calendar shows rooms held by imported iCal feeds and the overbookings among
 * them (API.md 11.1), in a real browser.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { SCOPES } from '../../src/operator-access/scopes.ts';
import {
  DESKTOP,
  dateIn,
  launchChromium,
  openPage,
  type PagesApp,
  screenshot,
  seriousA11yViolations,
  skipWithoutChromium,
  startPagesApp,
} from '../helpers/browser.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { FeedServer } from './feed-server.ts';

const hotel = makeHotel({ name: 'Harbour View' });
const OPERATOR = '/api/v1/operator';

const hotelDate = (days = 0) => dateIn(hotel.timezone, days);

describe('front desk calendar: external holds and conflicts', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  let platform: FeedServer;
  let key: string;
  before(async () => {
    [app, browser, platform] = await Promise.all([
      startPagesApp([hotel], { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_WORKER: 'false' }),
      launchChromium(),
      FeedServer.start(),
    ]);
    const dataKey = app.t.config.dataEncryptionKey as Buffer;
    ({ secret: key } = await app.t.db.transaction((tx) =>
      insertCliKey(tx, operatorKeyHasher(dataKey), {
        name: 'front desk',
        scopes: [...SCOPES],
        hotelIds: null,
      }),
    ));
  });
  after(async () => {
    await browser?.close();
    await platform?.close();
    await app?.t.close();
  });

  it('marks the nights other channels hold, and an overbooking', async () => {
    const [night2, night3, night4] = [hotelDate(2), hotelDate(3), hotelDate(4)];
    // Both suites sold on night 2; the platform holds one suite on nights 2 and 3.
    const quote = await app.t.inject({
      method: 'POST',
      url: '/api/v1/booking/quote',
      payload: {
        hotelId: hotel.id,
        checkIn: night2,
        checkOut: night3,
        adults: 2,
        rooms: 2,
        roomTypeId: 'suite',
        ratePlanId: 'flex',
      },
    });
    assert.equal(quote.statusCode, 201, quote.body);
    const booked = await app.t.inject({
      method: 'POST',
      url: '/api/v1/booking/reservations',
      payload: {
        quoteId: quote.json().id,
        guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' },
      },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    platform.events([['platform-stay@example', night2, night4]]);
    const imported = await app.t.inject({
      method: 'POST',
      url: `${OPERATOR}/hotels/${hotel.id}/ical-imports`,
      headers: { authorization: `Bearer ${key}` },
      payload: { roomTypeId: 'suite', url: platform.url, name: 'Platform' },
    });
    assert.equal(imported.statusCode, 201, imported.body);

    const { page, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await page.goto(`${app.baseUrl}/desk`);
    await page.getByLabel('Operator key').fill(key);
    await page.getByRole('button', { name: 'Open the desk' }).click();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
    await page.getByRole('button', { name: 'Calendar' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    const cell = (date: string) => page.locator(`.desk-cell[data-room-type="suite"][data-date="${date}"]`);
    const clash = await cell(night2).innerText();
    assert.match(clash, /1 held by another channel/);
    assert.match(clash, /1 overbooked/);
    const held = await cell(night3).innerText();
    assert.match(held, /1 of 2 left/);
    assert.match(held, /1 held by another channel/);
    assert.doesNotMatch(held, /overbooked/);
    await cell(night2).click();
    await page.getByRole('alert').filter({ hasText: 'move or cancel a stay' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, 'desk-calendar-conflict');
    assert.deepEqual(errors, []);
  });
});
