import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  assertNoBrokenText,
  DESKTOP,
  launchChromium,
  openPage,
  type PagesApp,
  PHONE,
  screenshot,
  seriousA11yViolations,
  skipWithoutChromium,
  startPagesApp,
} from '../helpers/browser.ts';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';

// /checkin and /checkin/{session} on a phone: find the booking, the five steps, the verified end.

// Named per language (API.md 9): the pages show the guest's.
const hotel = makeHotel({ name: { en: 'Harbour View', es: 'Vista al Puerto' } });

describe('check-in pages', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  before(async () => {
    [app, browser] = await Promise.all([startPagesApp([hotel]), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
  });

  /** A reservation made through the API: 2 adults and a child (two companions), pay at the hotel. */
  async function book(lastName: string): Promise<string> {
    const stay = {
      hotelId: hotel.id,
      checkIn: daysFromNow(10),
      checkOut: daysFromNow(12),
      adults: 2,
      children: [6],
    };
    const quote = await app.t.inject({
      method: 'POST',
      url: '/api/v1/booking/quote',
      payload: { ...stay, roomTypeId: 'double', ratePlanId: 'flex' },
    });
    assert.equal(quote.statusCode, 201, quote.body);
    const reservation = await app.t.inject({
      method: 'POST',
      url: '/api/v1/booking/reservations',
      payload: { quoteId: quote.json().id, guest: { firstName: 'Ana', lastName, email: 'ana@example.com' } },
    });
    assert.equal(reservation.statusCode, 201, reservation.body);
    return reservation.json().id;
  }

  async function expectA11y(page: Page) {
    assert.deepEqual(await seriousA11yViolations(page), []);
  }

  async function fillGuestDetails(page: Page) {
    await page.getByLabel('E-mail').fill('ana@example.com');
    await page.getByLabel('Date of birth').fill('1988-04-02');
    await page.getByLabel('Nationality').fill('pt');
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('checks in on a phone: code and name, five steps with a photo and a drawn signature, verified', async () => {
    const code = await book('Silva');
    const { page, foreignRequests, errors } = await openPage(browser, app.baseUrl, PHONE);
    await page.goto(`${app.baseUrl}/checkin?code=${code}`);
    await page.getByRole('heading', { name: 'Online check-in' }).waitFor();
    assert.equal(await page.getByLabel('Booking code').inputValue(), code);
    await expectA11y(page);
    await screenshot(page, 'checkin-find-phone');

    // A wrong name: the API's answer is shown, nothing revealed.
    await page.getByLabel('Last name').fill('Nobody');
    await page.getByRole('button', { name: 'Start check-in' }).click();
    await page.locator('.form-alert').waitFor();

    await page.getByLabel('Last name').fill('silva');
    await page.getByRole('button', { name: 'Start check-in' }).click();
    await page.waitForURL(/\/checkin\/cks_/);
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    assert.match(await page.locator('.step-count').innerText(), /Step 1 of 5/);
    assert.equal(await page.getByLabel('First name').inputValue(), 'Ana');
    await expectA11y(page);
    await screenshot(page, 'checkin-details-phone');

    // The e-mail starts as the booking's.
    assert.equal(await page.getByLabel('E-mail').inputValue(), 'ana@example.com');

    // Each refusal lands next to its field, in words a guest understands (not the API's
    // developer text), and an empty date of birth asks for it.
    const errorOf = async (label: string) =>
      page.locator(`#${await page.getByLabel(label).getAttribute('id')}-error`);
    await page.getByLabel('E-mail').fill('nope');
    await page.getByLabel('Nationality').fill('PT');
    await page.getByRole('button', { name: 'Continue' }).click();
    await (await errorOf('E-mail')).waitFor();
    assert.equal(await page.getByLabel('E-mail').getAttribute('aria-invalid'), 'true');
    assert.equal(
      await (await errorOf('E-mail')).innerText(),
      'Enter an e-mail address like ana@example.com.',
    );
    assert.equal(await (await errorOf('Date of birth')).innerText(), 'Enter the date of birth.');
    assert.equal(
      await page.locator('.form-alert').innerText(),
      'Some details need correcting: see the messages next to the fields.',
    );
    const developerText = /\/data\/|ISO 3166|expected format|must match|alpha-2/;
    assert.doesNotMatch(await page.locator('main').innerText(), developerText);
    await assertNoBrokenText(page, 'check-in: details refused');
    // A country code that is no country: refused next to the nationality, in the same words.
    await page.getByLabel('E-mail').fill('ana@example.com');
    await page.getByLabel('Date of birth').fill('1988-04-02');
    await page.getByLabel('Nationality').fill('ZZ');
    await page.getByRole('button', { name: 'Continue' }).click();
    await (await errorOf('Nationality')).waitFor();
    assert.equal(
      await (await errorOf('Nationality')).innerText(),
      'Enter a two-letter country code, e.g. PT, ES, GB.',
    );
    assert.doesNotMatch(await page.locator('main').innerText(), developerText);
    // The same in Spanish.
    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('heading', { name: 'Sus datos' }).waitFor();
    assert.match(await page.locator('main').innerText(), /Vista al Puerto/);
    await page.getByLabel('Fecha de nacimiento').fill('');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await (await errorOf('Fecha de nacimiento')).waitFor();
    assert.equal(await (await errorOf('Fecha de nacimiento')).innerText(), 'Indique la fecha de nacimiento.');
    assert.doesNotMatch(await page.locator('main').innerText(), developerText);
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    await fillGuestDetails(page);

    await page.getByRole('heading', { name: 'Other guests' }).waitFor();
    const companions = page.locator('fieldset.companion');
    assert.equal(await companions.count(), 2);
    for (const [i, [first, birth]] of [
      ['Rui', '1985-01-20'],
      ['Inês', '2020-06-01'],
    ].entries()) {
      const row = companions.nth(i);
      await row.getByLabel('First name').fill(first as string);
      await row.getByLabel('Last name').fill('Silva');
      await row.getByLabel('Date of birth').fill(birth as string);
      await row.getByLabel('Nationality').fill('PT');
    }
    await expectA11y(page);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { name: 'Identity document' }).waitFor();
    const photoInput = page.locator('input[type=file]');
    assert.equal(await photoInput.getAttribute('capture'), 'environment');
    assert.equal(await photoInput.getAttribute('accept'), 'image/*');
    await page.getByLabel('Document number').fill('CA123456');
    await page.getByLabel('Issuing country').fill('PT');
    await page.getByLabel('Expiry date').fill(daysFromNow(900));
    // A generated PNG (a screenshot of this very page) stands in for the camera's picture.
    const picture = await page.screenshot({ type: 'png' });
    await photoInput.setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: picture });
    await page.locator('img.photo-preview:not([hidden])').waitFor();
    const src = await page.locator('img.photo-preview').getAttribute('src');
    assert.match(src ?? '', /^data:image\/jpeg;base64,/, 'shrunk to a JPEG in the browser');
    await expectA11y(page);
    await screenshot(page, 'checkin-document-phone');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { name: 'Signature' }).waitFor();
    // Without a signature or the terms accepted, the API's answer points at the fields.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('.form-alert').waitFor();
    await page.getByLabel(/I accept/).check();
    const pad = page.locator('canvas.signature-pad');
    const box = await pad.boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) {
      await page.mouse.move(box.x + 20 + i * 22, box.y + box.height / 2 + (i % 2 ? -30 : 30));
    }
    await page.mouse.up();
    await expectA11y(page);
    await screenshot(page, 'checkin-signature-phone');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    await page.getByLabel(/Visa/).check();
    await expectA11y(page);
    await page.getByRole('button', { name: /^Pay / }).click();

    await page.getByRole('heading', { name: 'You are checked in' }).waitFor();
    await page.locator('.verification-verified').waitFor();
    assert.match(await page.locator('#verification').innerText(), /Verified/);
    await expectA11y(page);
    await screenshot(page, 'checkin-done-phone');

    // What the service stored: the drawn signature as a PNG, the photo, the payment.
    const sessionId = new URL(page.url()).pathname.split('/')[2];
    const session = (
      await app.t.inject({ method: 'GET', url: `/api/v1/checkin/sessions/${sessionId}` })
    ).json().session;
    assert.equal(session.status, 'completed');
    const byName = Object.fromEntries(session.steps.map((s: { name: string }) => [s.name, s]));
    assert.equal(byName.identity_document.data.hasImage, true);
    assert.equal(byName.signature.data.signed, true);
    assert.equal(byName.payment.status, 'completed');
    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
  });

  it('resumes after a reload at the next step, and says plainly when the signature does not verify', async () => {
    const code = await book('Sousa');
    const { page, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await page.goto(`${app.baseUrl}/checkin?code=${code}`);
    await page.getByLabel('Last name').fill('Sousa');
    await page.getByRole('button', { name: 'Start check-in' }).click();
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    await screenshot(page, 'checkin-details-desktop');
    await fillGuestDetails(page);
    await page.getByRole('heading', { name: 'Other guests' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Other guests' }).waitFor();
    assert.match(await page.locator('.step-count').innerText(), /Step 2 of 5/);
    assert.equal(await page.locator('.progress .step-completed').count(), 1);

    // The rest by keyboard only, signing with the typed name instead of drawing.
    const companions = page.locator('fieldset.companion');
    for (const i of [0, 1]) {
      const row = companions.nth(i);
      await row.getByLabel('First name').fill(`Guest${i}`);
      await row.getByLabel('Last name').fill('Sousa');
      await row.getByLabel('Date of birth').fill('1990-01-01');
      await row.getByLabel('Nationality').fill('ES');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Identity document' }).waitFor();
    await page.getByLabel('Document', { exact: true }).selectOption('national_id');
    await page.getByLabel('Document number').fill('12345678Z');
    await page.getByLabel('Issuing country').fill('ES');
    await page.getByLabel('Expiry date').fill(daysFromNow(400));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Signature' }).waitFor();
    await page.getByLabel(/I accept/).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Sign with my typed name' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Continue' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    await expectA11y(page);
    assert.deepEqual(errors, []);

    // A tampered signature: the page must not claim the session verified.
    await page.route('**/api/v1/checkin/sessions/*', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      const [h, p, s] = body.signature.split('.');
      body.signature = [h, p, `${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`].join('.');
      body.session.nextStep = null;
      await route.fulfill({ response, json: body });
    });
    await page.reload();
    await page.locator('.verification-failed').waitFor();
    assert.match(await page.locator('#verification').innerText(), /did NOT verify/);
    await expectA11y(page);
  });

  it('opens /checkin in Spanish from Accept-Language and switches to Portuguese', async () => {
    const { page } = await openPage(browser, app.baseUrl, { ...PHONE, locale: 'es-ES' });
    await page.goto(`${app.baseUrl}/checkin`);
    await page.getByRole('heading', { name: 'Check-in en línea' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'es');
    await page.getByLabel('Código de reserva').fill('ABC');
    await page.getByLabel('Idioma').selectOption('pt');
    await page.getByRole('heading', { name: 'Check-in online' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'pt');
    assert.equal(
      await page.getByLabel('Código da reserva').inputValue(),
      'ABC',
      'typed values survive a switch',
    );
    await expectA11y(page);
    await screenshot(page, 'checkin-find-pt-desktop');

    // No such booking: the API's English detail becomes the Portuguese sentence for not_found.
    await page.getByLabel('Código da reserva').fill('ZZZZZZZZZ');
    await page.getByLabel('Apelido').fill('Ninguém');
    await page.getByRole('button', { name: 'Começar o check-in' }).click();
    await page.locator('.form-alert').waitFor();
    assert.equal(
      await page.locator('.form-alert').innerText(),
      'Não o encontrámos. Verifique o código ou a ligação e tente de novo.',
    );
    await expectA11y(page);
  });
});
