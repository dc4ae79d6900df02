import assert from 'node:assert/strict';
import { type AddressInfo, createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createEncryptor } from '../../src/infra/crypto/encryption.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import type { Role } from '../../src/operator-access/roles.ts';
import { SCOPES } from '../../src/operator-access/scopes.ts';
import { inviteStaff } from '../../src/staff/commands/invite-staff.ts';
import {
  DESKTOP,
  launchChromium,
  openPage,
  type PagesApp,
  screenshot,
  seriousA11yViolations,
  skipWithoutChromium,
} from '../helpers/browser.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { makeHotel, startTestApp } from '../helpers/test-app.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// /desk for owners, managers and accountants (API.md 12): the staff view (invite, role and
// hotels, disable and enable) and the audit trail with its filters and "more", with an operator
// key and with a person's session cookie.

const harbour = makeHotel({ name: 'Harbour View' });
const oldTown = makeHotel({ name: 'Old Town' });
const OPERATOR = '/api/v1/operator';
const PASSWORD = 'correct horse battery staple orbit';

describe('desk: staff and audit trail', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  let key: string;
  before(async () => {
    // The page signs in from its own origin, which must be PUBLIC_BASE_URL's (API.md 12): a free
    // port is chosen first, so the service knows its origin before it listens.
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const t = await startTestApp({ hotels: [harbour, oldTown], env: { PUBLIC_BASE_URL: baseUrl } });
    await t.app.listen({ port, host: '127.0.0.1' });
    app = { t, baseUrl };
    browser = await launchChromium();
    ({ secret: key } = await app.t.db.transaction((tx) =>
      insertCliKey(tx, operatorKeyHasher(app.t.config.dataEncryptionKey as Buffer), {
        name: 'Back office',
        scopes: [...SCOPES],
        hotelIds: null,
      }),
    ));
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
  });

  const api = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
    app.t.inject({ method, url: OPERATOR + url, headers: { authorization: `Bearer ${key}` }, payload });

  async function withKey(page: Page) {
    await page.goto(`${app.baseUrl}/desk`);
    await page.getByLabel('Operator key').fill(key);
    await page.getByRole('button', { name: 'Open the desk' }).click();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
  }

  /** An active person (invited as the command line does, the invitation accepted). */
  async function person(email: string, name: string, role: Role, hotelIds?: string[]) {
    const ctx = {
      db: app.t.db,
      clock: app.t.clock,
      config: app.t.config,
      encryptor: createEncryptor(app.t.config.dataEncryptionKey as Buffer),
      catalog: app.t.runtime.catalog,
      audit: SYSTEM_SCOPE,
    };
    const { link } = await inviteStaff(
      ctx,
      { id: 'cli', scopes: [...SCOPES], hotelIds: null },
      {
        email,
        name,
        role,
        ...(hotelIds ? { hotelIds } : {}),
      },
    );
    const accepted = await app.t.inject({
      method: 'POST',
      url: `/api/v1/auth/invitations/${link.split('#')[1]}/accept`,
      headers: { origin: app.baseUrl },
      payload: { password: PASSWORD },
    });
    assert.equal(accepted.statusCode, 201, accepted.body);
  }

  /** Signs in from the page's own context, as the sign-in screen will: the cookie is the browser's. */
  async function withSession(page: Page, email: string) {
    await page.goto(`${app.baseUrl}/desk`);
    const status = await page.evaluate(
      async ([e, p]) =>
        (
          await fetch('/api/v1/auth/sign-in', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: e, password: p }),
          })
        ).status,
      [email, PASSWORD],
    );
    assert.equal(status, 200);
    await page.goto(`${app.baseUrl}/desk`);
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
  }

  it('with an operator key: invites, changes and disables a person, then reads it all in the audit trail', async () => {
    const { page, foreignRequests, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await withKey(page);
    const nav = page.getByRole('navigation');
    await nav.getByRole('button', { name: 'Staff' }).click();
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();

    const invite = page.locator('form', { has: page.getByRole('heading', { name: 'Invite a person' }) });
    await invite.getByLabel('E-mail').fill('marta@harbour.test');
    await invite.getByLabel('Name').fill('Marta Reis');
    await invite.getByLabel('Role').selectOption('manager');
    await invite.getByLabel('Harbour View').check();
    await invite.getByLabel('Old Town').uncheck();
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to marta@harbour.test.').waitFor();
    const card = page.locator('[data-staff]', { hasText: 'Marta Reis' });
    await card.getByText('Invited').waitFor();
    assert.match(await card.innerText(), /Manager · Harbour View/);

    // A bad e-mail: the API's refusal is shown next to the field, nothing is invited.
    await invite.getByLabel('E-mail').fill('not-an-email');
    await invite.getByLabel('Name').fill('Nobody');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await invite.locator('.field-error').first().waitFor();
    assert.equal((await api('GET', '/staff')).json().data.length, 1);

    // Role and hotels, then disable and enable.
    await card.getByLabel('Role').selectOption('accountant');
    await card.getByLabel('Old Town').check();
    await card.getByRole('button', { name: 'Save role and hotels' }).click();
    await page
      .getByText('Marta Reis: saved.')
      .waitFor({ timeout: 5000 })
      .catch(async (error) => {
        throw new Error(`${error}: ${await card.locator('.form-alert, .field-error').allInnerTexts()}`);
      });
    await page
      .locator('[data-staff]', { hasText: /Accountant · (Harbour View, Old Town|Old Town, Harbour View)/ })
      .waitFor();
    await page
      .locator('[data-staff]', { hasText: 'Marta Reis' })
      .getByRole('button', { name: 'Disable' })
      .click();
    await page.locator('[data-staff]', { hasText: 'Marta Reis' }).getByText('Disabled').waitFor();
    const [stored] = (await api('GET', '/staff')).json().data;
    assert.deepEqual(
      { role: stored.role, hotelIds: stored.hotelIds, status: stored.status },
      { role: 'accountant', hotelIds: [harbour.id, oldTown.id].sort(), status: 'disabled' },
    );
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page
      .locator('[data-staff]', { hasText: 'Marta Reis' })
      .getByRole('button', { name: 'Enable' })
      .click();
    await page.locator('[data-staff]', { hasText: 'Marta Reis' }).getByText('Invited').waitFor();
    await screenshot(page, 'desk-staff');

    // Enough entries for a second page: 52 calendar changes.
    for (let i = 0; i < 52; i++) {
      const res = await api('PATCH', `/hotels/${oldTown.id}/calendar`, {
        updates: [{ from: '2030-01-01', to: '2030-01-01', set: { stopSell: i % 2 === 0 } }],
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    await nav.getByRole('button', { name: 'Audit trail' }).click();
    await page.getByRole('heading', { name: 'Audit trail', level: 1 }).waitFor();
    await page.getByRole('heading', { name: '50 entries' }).waitFor();
    await page.getByRole('button', { name: 'More' }).click();
    // More than the first page's 50: /^5\d/ would match the first page's heading before the
    // second page has come.
    await page.getByRole('heading', { name: /^5[1-9] entries$/ }).waitFor();
    const total = await page.locator('[data-audit]').count();
    assert.ok(total > 50 && total <= 60, String(total));
    assert.equal(await page.getByRole('button', { name: 'More' }).count(), 0);

    // Filters: the account changes of Harbour View.
    const filters = page.getByRole('search');
    await filters.getByLabel('Hotel').selectOption(harbour.id);
    await filters.getByLabel('Action').selectOption('staff.modified');
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: '3 entries' }).waitFor();
    const first = await page.locator('[data-audit]').first().innerText();
    assert.match(first, /Account changed · staff usr_/);
    assert.match(first, /Back office \(operator key: key_/);
    assert.match(first, /status\s+disabled → invited/);
    // A date range with nothing in it.
    await filters.getByLabel('From').fill('2020-01-01');
    await filters.getByLabel('To').fill('2020-01-31');
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No entries match.').waitFor();
    await filters.getByLabel('From').fill('');
    await filters.getByLabel('To').fill('');
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: '3 entries' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, 'desk-audit');
    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
  });

  it('with a session cookie: an accountant reads the audit trail of its hotels, the front desk sees neither view', async () => {
    await person('books@harbour.test', 'Bea Books', 'accountant', [harbour.id]);
    await person('desk@harbour.test', 'Dan Desk', 'front_desk', [harbour.id]);
    const accountant = await openPage(browser, app.baseUrl, DESKTOP);
    await withSession(accountant.page, 'books@harbour.test');
    const nav = accountant.page.getByRole('navigation');
    assert.equal(await nav.getByRole('button', { name: 'Staff' }).count(), 0);
    await nav.getByRole('button', { name: 'Audit trail' }).click();
    await accountant.page.getByRole('heading', { name: /^\d+ entr(y|ies)$/ }).waitFor();
    const text = await accountant.page.locator('.audit-list').innerText();
    assert.doesNotMatch(text, new RegExp(oldTown.id), 'only its own hotels');
    assert.match(text, /Person invited/);
    assert.match(text, /Signed in/, 'the sign-in is in the trail too');
    assert.equal(await nav.getByRole('button', { name: 'Calendar' }).count(), 0);
    assert.deepEqual(await seriousA11yViolations(accountant.page), []);
    await screenshot(accountant.page, 'desk-accountant');
    assert.deepEqual(accountant.errors, []);

    const clerk = await openPage(browser, app.baseUrl, DESKTOP);
    await withSession(clerk.page, 'desk@harbour.test');
    const tabs = clerk.page.getByRole('navigation');
    await tabs.getByRole('button', { name: 'Calendar' }).waitFor();
    assert.equal(await tabs.getByRole('button', { name: 'Staff' }).count(), 0);
    assert.equal(await tabs.getByRole('button', { name: 'Audit trail' }).count(), 0);
    await screenshot(clerk.page, 'desk-front-desk');
    assert.deepEqual(clerk.errors, []);
  });

  it('with a session cookie: an owner sees every view, its own sign-in in the audit trail', async () => {
    await person('owner@harbour.test', 'Otto Owner', 'owner');
    const { page, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await withSession(page, 'owner@harbour.test');
    const nav = page.getByRole('navigation');
    for (const tab of ['Today', 'Search', 'Calendar', 'Promotions', 'Staff', 'My account'])
      await nav.getByRole('button', { name: tab }).waitFor();
    await nav.getByRole('button', { name: 'Audit trail' }).click();
    await page.getByRole('heading', { name: /^\d+ entr(y|ies)$/ }).waitFor();
    const first = page.locator('.audit-list li').first();
    assert.match(await first.innerText(), /Signed in[\s\S]*Otto Owner/);
    assert.deepEqual(errors, []);
  });

  it('with a session cookie: a manager sees every view but keys, is not offered the owner role, and invites', async () => {
    await person('boss@harbour.test', 'Mia Manager', 'manager');
    const { page, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await withSession(page, 'boss@harbour.test');
    const nav = page.getByRole('navigation');
    for (const tab of ['Today', 'Search', 'Calendar', 'Promotions', 'Staff', 'Audit trail', 'My account'])
      await nav.getByRole('button', { name: tab }).waitFor();
    await nav.getByRole('button', { name: 'Staff' }).click();
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    const invite = page.locator('form', { has: page.getByRole('heading', { name: 'Invite a person' }) });
    await invite.getByLabel('E-mail').fill('olga@harbour.test');
    await invite.getByLabel('Name').fill('Olga Ortiz');
    // API.md 12: a manager's staff:write never grants owner; the desk does not offer it (the API
    // refuses it all the same: test/staff/accounts.test.ts).
    const offered = await invite
      .getByLabel('Role')
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    assert.deepEqual(offered, ['manager', 'front_desk', 'accountant']);
    // Nor may the manager disable their own account from their card.
    const own = page.locator('[data-staff]', { hasText: 'Mia Manager' });
    await own.waitFor();
    assert.equal(await own.getByRole('button', { name: 'Disable' }).count(), 0);
    await invite.getByLabel('Role').selectOption('front_desk');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to olga@harbour.test.').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, 'desk-manager');
    assert.deepEqual(errors, []);
  });
});
