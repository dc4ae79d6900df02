import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { SCOPES } from '../../src/operator-access/scopes.ts';
import {
  DESKTOP,
  launchChromium,
  openPage,
  type PagesApp,
  seriousA11yViolations,
  skipWithoutChromium,
  startPagesApp,
} from '../helpers/browser.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { makeHotel } from '../helpers/test-app.ts';

// Promotion codes at the desk (API.md 14.1): the hotel's codes listed with their uses, a code
// added, a bad percent refused next to its field with nothing saved, a code changed, and one
// removed after a confirmation; a key without inventory:write sees no Promotions tab.

const hotel = makeHotel({ name: 'Casa do Rio', currency: 'EUR' });
const OPERATOR = '/api/v1/operator';

describe('promotion codes at the front desk', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  const keys: Record<string, string> = {};
  before(async () => {
    [app, browser] = await Promise.all([startPagesApp([hotel]), launchChromium()]);
    const hasher = operatorKeyHasher(app.t.config.dataEncryptionKey as Buffer);
    for (const [name, scopes] of [
      ['all', [...SCOPES]],
      ['reader', ['reservations:read']],
    ] as const) {
      const { secret } = await app.t.db.transaction((tx) =>
        insertCliKey(tx, hasher, { name, scopes: [...scopes], hotelIds: null }),
      );
      keys[name] = secret;
    }
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
  });

  const codes = async () =>
    (
      await app.t.inject({
        method: 'GET',
        url: `${OPERATOR}/hotels/${hotel.id}/promotions`,
        headers: { authorization: `Bearer ${keys.all}` },
      })
    ).json().data as Array<{
      code: string;
      name: string;
      discount?: Record<string, number>;
      maxUses?: number;
    }>;

  async function openDesk(key: string) {
    const watched = await openPage(browser, app.baseUrl, DESKTOP);
    await watched.page.goto(`${app.baseUrl}/desk`);
    await watched.page.getByLabel('Operator key').fill(key);
    await watched.page.getByRole('button', { name: 'Open the desk' }).click();
    await watched.page.getByRole('heading', { name: /^Today, / }).waitFor();
    return watched;
  }

  it('adds, refuses, changes and removes a code', async () => {
    const { page, foreignRequests, errors } = await openDesk(keys.all as string);
    await page.getByRole('navigation').getByRole('button', { name: 'Promotions' }).click();
    await page.getByRole('heading', { name: 'Promotion codes', level: 1 }).waitFor();
    await page.getByText('This hotel has no promotion codes yet.').waitFor();

    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add a code' }) });
    await form.getByLabel('Code').fill('summer-10');
    await form.getByLabel('Name guests see').fill('Summer newsletter');
    await form.getByLabel('Percent or amount').fill('150');
    await form.getByRole('button', { name: 'Save the code' }).click();
    await form.locator('.field-error').first().waitFor();
    assert.deepEqual(await codes(), [], 'a refused code is not saved');

    await form.getByLabel('Percent or amount').fill('10');
    await form.getByLabel(/Reservations that may use it/).fill('5');
    await form.getByRole('button', { name: 'Save the code' }).click();
    await page
      .getByText('Code SUMMER-10 saved.')
      .waitFor()
      .catch(async (error) => {
        throw new Error(`${error}: ${await page.locator('main').innerText()} ${JSON.stringify(errors)}`);
      });
    const row = page.locator('tr', { hasText: 'SUMMER-10' });
    assert.match(await row.innerText(), /Summer newsletter/);
    assert.match(await row.innerText(), /10 % off/);
    assert.match(await row.innerText(), /0 \/ 5/);
    const [saved] = await codes();
    assert.deepEqual(
      { code: saved?.code, name: saved?.name, discount: saved?.discount, maxUses: saved?.maxUses },
      { code: 'SUMMER-10', name: 'Summer newsletter', discount: { percent: 10 }, maxUses: 5 },
    );
    assert.deepEqual(await seriousA11yViolations(page), []);

    // A change: an amount per night in the hotel's currency, typed with a decimal comma.
    await row.getByRole('button', { name: 'Edit SUMMER-10' }).click();
    const edit = page.locator('form', { has: page.getByRole('heading', { name: 'Change SUMMER-10' }) });
    await edit.getByLabel('Discount').selectOption('amountPerNight');
    await edit.getByLabel('Percent or amount').fill('7,50');
    await edit.getByRole('button', { name: 'Save the code' }).click();
    await page.getByText('Code SUMMER-10 saved.').waitFor();
    assert.deepEqual((await codes())[0]?.discount, { amountPerNight: 750 });

    await page
      .locator('tr', { hasText: 'SUMMER-10' })
      .getByRole('button', { name: 'Remove SUMMER-10' })
      .click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByText('Code SUMMER-10 removed.').waitFor();
    assert.deepEqual(await codes(), []);
    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
  });

  it('shows no Promotions tab to a key without inventory:write', async () => {
    const { page } = await openDesk(keys.reader as string);
    const nav = page.getByRole('navigation');
    await nav.getByRole('button', { name: 'Today' }).waitFor();
    assert.equal(await nav.getByRole('button', { name: 'Promotions' }).count(), 0);
  });
});
