import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { DEMO_CATALOG } from '../../src/runtime.ts';
import {
  DESKTOP,
  launchChromium,
  openPage,
  PHONE,
  screenshot,
  seriousA11yViolations,
  skipWithoutChromium,
} from '../helpers/browser.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// /book/{hotel} sells (API.md 9.1): the demo catalogue's photos, rooms and the date picker with
// prices, in Debian's Chromium, with no broken image and no request leaving the service.

/** Scrolls to the end (lazy photos load), then waits until every image has finished loading. */
// biome-ignore lint/suspicious/noExplicitAny: this file is compiled without the DOM's types
type Any = any;

async function allImagesLoaded(page: Page): Promise<{ count: number; broken: string[] }> {
  // Functions, not strings: the page's CSP (no eval) applies to what polls inside it.
  await page.evaluate(() => {
    for (const img of (globalThis as Any).document.images) img.loading = 'eager';
    (globalThis as Any).document.defaultView.scrollTo(0, (globalThis as Any).document.body.scrollHeight);
  });
  await page.waitForFunction(() =>
    [...(globalThis as Any).document.images].every((img: Any) => img.complete),
  );
  return page.evaluate(() => {
    const images = [...(globalThis as Any).document.images];
    return {
      count: images.length,
      broken: images
        .filter((img: Any) => img.naturalWidth === 0)
        .map((img: Any) => img.currentSrc || img.src),
    };
  });
}

describe('the booking page sells the rooms', { skip: skipWithoutChromium }, () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  before(async () => {
    t = await startTestApp({ hotels: [], catalogFile: DEMO_CATALOG });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const [name, device] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`shows photos, rooms and nightly prices on a ${name}, nothing broken, nothing from outside`, async () => {
      const { page, foreignRequests, errors } = await openPage(browser, baseUrl, device);
      // The page's own code and styles (scripts, style sheets, its texts), as compressed on the wire.
      const code: Array<Promise<number>> = [];
      page.on('response', (response) => {
        const type = response.request().resourceType();
        if (['document', 'script', 'stylesheet'].includes(type) || response.url().includes('/i18n/'))
          code.push(response.body().then((body) => gzipSync(body).length));
      });
      await page.goto(`${baseUrl}/book/harbour-view`);
      await page.getByRole('heading', { name: 'Harbour View' }).waitFor();
      await page.getByRole('heading', { name: 'The rooms' }).waitFor();
      await page.locator('.night .night-price', { hasText: '€' }).first().waitFor();
      const { count, broken } = await allImagesLoaded(page);
      assert.ok(count >= 6, `${count} images`);
      assert.deepEqual(broken, []);
      // Every photo has its alt text and its size (no layout shift).
      const unsized = await page.locator('img:not([width]), img:not([height]), img:not([alt])').count();
      assert.equal(unsized, 0);
      await page.getByText('Sea view').first().waitFor();
      await page.getByText('1 × king bed').waitFor();
      await page.getByRole('link', { name: 'Open in a map' }).waitFor();
      assert.deepEqual(await seriousA11yViolations(page), []);
      await screenshot(page, `book-selling-${name}`);
      const bytes = (await Promise.all(code)).reduce((a, b) => a + b, 0);
      assert.ok(bytes > 0 && bytes < 100 * 1024, `${bytes} bytes of code and styles, compressed`);
      assert.deepEqual(foreignRequests, []);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }

  it('picks the stay in the date picker, and speaks Spanish', async () => {
    const { page, foreignRequests, errors } = await openPage(browser, baseUrl, {
      ...DESKTOP,
      locale: 'es-ES',
    });
    await page.goto(`${baseUrl}/book/harbour-view`);
    await page.getByRole('heading', { name: 'Precios por noche' }).waitFor();
    await page.getByText('Vista al mar').first().waitFor();
    // Next month: every night is ahead, so the first one with a price can be an arrival.
    await page.getByRole('button', { name: /Mes siguiente/ }).click();
    const night = page.locator('.night:not(.closed)').first();
    await night.waitFor();
    await night.click();
    const checkIn = await page.locator('input[name="checkIn"]').inputValue();
    assert.match(checkIn, /^\d{4}-\d{2}-\d{2}$/);
    await page.getByText('Ahora elija el día de salida.').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
