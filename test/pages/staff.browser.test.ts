import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { createEncryptor } from '../../src/infra/crypto/encryption.ts';
import { issueLink } from '../../src/staff/commands/staff-context.ts';
import {
  DESKTOP,
  launchChromium,
  openPage,
  PHONE,
  screenshot,
  seriousA11yViolations,
  skipWithoutChromium,
} from '../helpers/browser.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { inviteAsCli, STRONG } from '../staff/helpers.ts';

// The desk's staff sign-in (API.md 12): an invitation accepted, password sign-in, a passkey made
// and used through Chromium's virtual authenticator (CDP WebAuthn domain), the password changed,
// a reset link, and sections shown by the person's scopes.

const hotel = makeHotel({ name: 'Harbour View' });
const NEW_PASSWORD = 'violet harbour lantern seventeen';

/** A free port: WebAuthn needs PUBLIC_BASE_URL to be the very origin the browser uses. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('front desk staff sign-in', { skip: skipWithoutChromium }, () => {
  let t: TestApp;
  let browser: Browser;
  let baseUrl: string;
  before(async () => {
    const port = await freePort();
    // `localhost`: a relying party id must be a domain, and it is a secure context over http.
    baseUrl = `http://localhost:${port}`;
    [t, browser] = await Promise.all([
      startTestApp({ hotels: [hotel], env: { PUBLIC_BASE_URL: baseUrl, LOG_LEVEL: 'silent' } }),
      launchChromium(),
    ]);
    await t.app.listen({ port, host: 'localhost' });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const staffApp = () => ({ t, hotels: [hotel, hotel] as never, origin: baseUrl });

  async function expectA11y(page: Page) {
    assert.deepEqual(await seriousA11yViolations(page), []);
  }

  /** A virtual platform authenticator (passkeys held, user verified), as a phone or laptop has. */
  async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { cdp, id: authenticatorId };
  }

  it('an invitation accepted, a passkey added, signed out, signed in with the passkey, the password changed', async () => {
    const email = `ana-${Date.now()}@example.com`;
    const { token } = await inviteAsCli(staffApp(), { email, name: 'Ana López', role: 'front_desk' });
    const { page, foreignRequests, errors } = await openPage(browser, baseUrl, DESKTOP);
    const authenticator = await virtualAuthenticator(page);

    await page.goto(`${baseUrl}/desk/welcome#${token}`);
    await page.getByRole('heading', { name: 'Welcome to the front desk' }).waitFor();
    await expectA11y(page);
    await screenshot(page, 'desk-welcome');
    // A weak password: the API's zxcvbn reason is shown next to the field, and the link stays good.
    await page.getByLabel('New password').fill('password1234');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page
      .locator('.field-error')
      .filter({ hasText: /too easy to guess/ })
      .waitFor();
    await expectA11y(page);
    await page.getByLabel('New password').fill(STRONG);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
    assert.ok(!page.url().includes('#'), 'the token leaves the address bar');
    assert.equal(
      await page.evaluate("sessionStorage.getItem('innkeep.desk.key')"),
      null,
      'no key in the tab',
    );
    const cookies = await page.context().cookies();
    assert.equal(cookies.length, 1);
    assert.equal(cookies[0]?.name, 'innkeep_session');
    assert.equal(cookies[0]?.httpOnly, true);
    assert.equal(cookies[0]?.sameSite, 'Strict');

    await page.getByRole('button', { name: 'My account' }).click();
    await page.getByRole('heading', { name: 'My account', level: 1 }).waitFor();
    await page.getByText('No passkey yet').waitFor();
    await expectA11y(page);
    await page.getByLabel('Name of the new passkey').fill('Desk laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('status').filter({ hasText: 'The passkey Desk laptop is added.' }).waitFor();
    await page.locator('.desk-list').getByText('Desk laptop').waitFor();
    await page.locator('.desk-list').getByText('never used').waitFor();
    const held = await authenticator.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: authenticator.id,
    });
    assert.equal(held.credentials.length, 1);
    assert.equal(held.credentials[0]?.isResidentCredential, true, 'a discoverable passkey');
    await expectA11y(page);
    await screenshot(page, 'desk-account');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the front desk' }).waitFor();
    assert.deepEqual(await page.context().cookies(), [], 'the cookie is cleared');
    await expectA11y(page);
    await screenshot(page, 'desk-sign-in');

    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
    await page.getByRole('button', { name: 'My account' }).click();
    await page
      .locator('.desk-list')
      .getByText(/last used/)
      .waitFor();

    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.locator('.field-error').first().waitFor();
    assert.equal(await page.getByLabel('Current password').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Current password').fill(STRONG);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(STRONG);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page
      .locator('.form-alert')
      .filter({ hasText: /not accepted|wrong/ })
      .waitFor();
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();

    // A reload keeps the person signed in (the cookie), and removing the passkey empties the list.
    await page.reload();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
    await page.getByRole('button', { name: 'My account' }).click();
    await page.getByRole('button', { name: 'Remove the passkey Desk laptop' }).click();
    await page.getByRole('status').filter({ hasText: 'The passkey Desk laptop is removed.' }).waitFor();
    await page.getByText('No passkey yet').waitFor();

    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
  });

  it('on a phone, in Spanish: a forgotten password, the reset link, and only the sections of the role', async () => {
    const email = `rui-${Date.now()}@example.com`;
    const { id, token } = await inviteAsCli(staffApp(), { email, name: 'Rui Costa', role: 'accountant' });
    const accepted = await t.inject({
      method: 'POST',
      url: `/api/v1/auth/invitations/${token}/accept`,
      headers: { origin: baseUrl },
      payload: { password: STRONG },
    });
    assert.equal(accepted.statusCode, 201, accepted.body);

    const { page, foreignRequests, errors } = await openPage(browser, baseUrl, { ...PHONE, locale: 'es-ES' });
    await page.goto(`${baseUrl}/desk?lang=es`);
    await page.getByRole('heading', { name: 'Iniciar sesión en la recepción' }).waitFor();
    await page.getByRole('button', { name: '¿Olvidó su contraseña?' }).click();
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviar el enlace' }).click();
    await page.getByRole('status').filter({ hasText: 'enlace ya está en camino' }).waitFor();
    await expectA11y(page);

    // The e-mailed link (its token is stored encrypted in the outbox): a fresh one, as the mail has.
    const ctx = {
      db: t.db,
      clock: t.clock,
      config: t.config,
      encryptor: createEncryptor(t.config.dataEncryptionKey as Buffer),
      catalog: t.runtime.catalog,
    };
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM staff_accounts WHERE public_id = $1', [
      id,
    ]);
    const link = await t.db.transaction((tx) => issueLink(tx, ctx, Number(rows[0]?.id), 'password_reset'));
    await page.goto(`${baseUrl}/desk/reset?lang=es#${link.split('#')[1]}`);
    await page.getByRole('heading', { name: 'Elija una contraseña nueva' }).waitFor();
    await page.getByLabel('Contraseña nueva').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Cambiar la contraseña' }).click();
    await page.getByRole('status').filter({ hasText: 'Su contraseña ha cambiado' }).waitFor();
    await expectA11y(page);

    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
    await page.getByRole('heading', { name: /^Hoy, / }).waitFor();
    // An accountant reads reservations but not the inventory: no calendar.
    const nav = page.getByRole('navigation');
    await nav.getByRole('button', { name: 'Mi cuenta' }).waitFor();
    assert.equal(await nav.getByRole('button', { name: 'Calendario' }).count(), 0);
    assert.equal(await nav.getByRole('button', { name: 'Buscar' }).count(), 1);
    await expectA11y(page);

    // A used link is refused, with the page's own words.
    await page.goto(`${baseUrl}/desk/reset?lang=es#${link.split('#')[1]}`);
    await page.getByLabel('Contraseña nueva').fill(`${NEW_PASSWORD} again`);
    await page.getByRole('button', { name: 'Cambiar la contraseña' }).click();
    await page.locator('.form-alert').filter({ hasText: 'ya se usó' }).waitFor();

    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
  });
});
