import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { addDays } from '../../src/dates/dates.ts';
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

// /book/{hotel} driven by clicking, as a guest would, in Debian's Chromium.

const checkIn = daysFromNow(30);
const checkOut = daysFromNow(32);
// Taken once, as the hotel is made: a test run across midnight still searches the restricted night.
const restricted = daysFromNow(60);
const base = makeHotel();
// Names per language (API.md 9) where a hotel gives them; the suite keeps a plain name.
const hotel = makeHotel({
  name: 'Harbour View',
  restrictions: [{ from: restricted, to: restricted, minStay: 3 }],
  roomTypes: base.roomTypes.map((rt) =>
    rt.id === 'double'
      ? { ...rt, name: { en: 'Double Room', es: 'Habitación doble', pt: 'Quarto duplo' } }
      : rt,
  ),
  ratePlans: base.ratePlans.map((rp) =>
    rp.id === 'flex' ? { ...rp, name: { en: 'Flexible', es: 'Flexible', pt: 'Flexível' } } : rp,
  ),
  services: (base.services ?? []).map((sv) =>
    sv.id === 'breakfast' ? { ...sv, name: { en: 'Breakfast', es: 'Desayuno', pt: 'Pequeno-almoço' } } : sv,
  ),
});

describe('booking page', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  before(async () => {
    [app, browser] = await Promise.all([startPagesApp([hotel]), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
  });

  it('books a pay-at-hotel plan: search, offer, quote, details, confirmation with a check-in link', async () => {
    const { page, foreignRequests, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await page.goto(`${app.baseUrl}/book/${hotel.id}`);
    await page.getByRole('heading', { name: 'Harbour View' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, 'book-desktop');

    await page.getByLabel('Check-in').fill(checkIn);
    await page.getByLabel('Check-out').fill(checkOut);
    await page.getByLabel('Adults').fill('2');
    await page.getByRole('button', { name: 'Add a child' }).click();
    await page.getByLabel('Age of child 1').selectOption('7');
    await page.getByLabel(/Breakfast/).check();
    await page.getByRole('button', { name: 'See prices' }).click();

    const offers = page.locator('.offer');
    await offers.first().waitFor();
    // 2 adults + 1 child: the suite and the double fit; flexible and non-refundable on the double.
    const flex = offers.filter({ hasText: 'Double Room · Flexible' });
    await flex.waitFor();
    const flexText = await flex.innerText();
    assert.match(flexText, /€/);
    assert.match(flexText, /10 rooms left/);
    assert.match(flexText, /Free cancellation until/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, 'book-offers-desktop');

    await flex.getByRole('button', { name: /Choose/ }).click();
    await page.getByRole('heading', { name: 'Your stay' }).waitFor();
    assert.match(await page.locator('.notice').innerText(), /held for you until/);
    assert.match(await page.locator('table.lines').innerText(), /Breakfast/);
    assert.equal(await page.locator('fieldset.cards').count(), 0, 'no payment for a pay-at-hotel plan');

    // An invalid e-mail: the API's message appears next to the e-mail field.
    await page.getByLabel('First name').fill('Ana');
    await page.getByLabel('Last name').fill('Silva');
    await page.getByLabel('E-mail').fill('not-an-email');
    await page.getByRole('button', { name: 'Book' }).click();
    const emailError = page.locator(`#${await page.getByLabel('E-mail').getAttribute('id')}-error`);
    await emailError.waitFor();
    assert.equal(await page.getByLabel('E-mail').getAttribute('aria-invalid'), 'true');
    // In words a guest understands, in English too: no JSON pointer, no schema wording.
    assert.equal(await emailError.innerText(), 'Enter an e-mail address like ana@example.com.');
    assert.equal(
      await page.locator('.form-alert').innerText(),
      'Some details need correcting: see the messages next to the fields.',
    );

    await page.getByLabel('E-mail').fill('ana@example.com');
    await page.getByRole('button', { name: 'Book' }).click();
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    const code = await page.locator('#reservation-code').innerText();
    assert.match(code, /^[0-9A-Z]{6,}$/);
    const link = await page.locator('#checkin-link').getAttribute('href');
    assert.match(link ?? '', /^\/checkin\/cks_/);
    assert.deepEqual(await seriousA11yViolations(page), []);

    // The booking really exists, with the stay chosen on the page.
    const reservation = await app.t.db.query<{ code: string }>(
      'SELECT code FROM reservations WHERE code = $1',
      [code],
    );
    assert.equal(reservation.rows.length, 1);
    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
  });

  it('pays a prepaid plan: a declined test card shows the decline, a good card books', async () => {
    const { page, foreignRequests, errors } = await openPage(browser, app.baseUrl, PHONE);
    await page.goto(`${app.baseUrl}/book/${hotel.id}`);
    await page.getByLabel('Check-in').fill(checkIn);
    await page.getByLabel('Check-out').fill(checkOut);
    await page.getByLabel('Adults').fill('2');
    await page.getByRole('button', { name: 'See prices' }).click();
    const nonref = page.locator('.offer').filter({ hasText: 'Double Room · Non-refundable' });
    await nonref.waitFor();
    assert.match(await nonref.innerText(), /Paid now/);
    await screenshot(page, 'book-offers-phone');
    await nonref.getByRole('button', { name: /Choose/ }).click();

    await page.getByLabel('First name').fill('Rui');
    await page.getByLabel('Last name').fill('Costa');
    await page.getByLabel('E-mail').fill('rui@example.com');
    await page.getByLabel(/Declined card/).check();
    await screenshot(page, 'book-quote-phone');
    await page.getByRole('button', { name: /^Pay .* and book$/ }).click();
    await page.locator('.form-alert').waitFor();
    assert.match(await page.locator('.form-alert').innerText(), /declin/i);
    // Only the decline: the cards are marked, with no "choose a card" under them.
    assert.equal(await page.locator('.field-error').count(), 0);
    assert.equal(await page.locator('fieldset.cards').getAttribute('aria-invalid'), 'true');
    await assertNoBrokenText(page, 'book: declined');
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.getByLabel(/Visa/).check();
    await page.getByRole('button', { name: /^Pay .* and book$/ }).click();
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    assert.match(await page.locator('main').innerText(), /Paid: €/);
    await screenshot(page, 'book-confirmed-phone');
    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
  });

  it('says what cancelling costs from now when free cancellation has already ended', async () => {
    const { page, errors } = await openPage(browser, app.baseUrl, PHONE);
    await page.goto(`${app.baseUrl}/book/${hotel.id}`);
    // Tomorrow: the flexible rate's free cancellation ended (2 days before arrival).
    await page.getByLabel('Check-in').fill(daysFromNow(1));
    await page.getByLabel('Check-out').fill(daysFromNow(2));
    await page.getByRole('button', { name: 'See prices' }).click();
    const flex = page.locator('.offer').filter({ hasText: 'Double Room · Flexible' });
    await flex.waitFor();
    assert.match(await flex.innerText(), /Free cancellation has ended: cancelling from now on costs €/);
    assert.doesNotMatch(await flex.innerText(), /Free cancellation until/);
    await assertNoBrokenText(page, 'book: offers for tomorrow');
    assert.deepEqual(errors, []);
  });

  it('says restriction reasons in words', async () => {
    const { page } = await openPage(browser, app.baseUrl, DESKTOP);
    await page.goto(`${app.baseUrl}/book/${hotel.id}`);
    await page.getByLabel('Check-in').fill(restricted);
    await page.getByLabel('Check-out').fill(addDays(restricted, 1));
    await page.getByRole('button', { name: 'See prices' }).click();
    await page.getByRole('heading', { name: 'Nothing available for this search' }).waitFor();
    assert.match(
      await page.locator('.unavailable').innerText(),
      /minimum stay is 3 nights for arrivals from/,
    );
    assert.deepEqual(await seriousA11yViolations(page), []);
  });

  it('switches language: texts, <html lang>, money and dates; the choice is remembered', async () => {
    const { page } = await openPage(browser, app.baseUrl, { ...DESKTOP, locale: 'es-ES' });
    await page.goto(`${app.baseUrl}/book/${hotel.id}`);
    await page.getByRole('button', { name: 'Ver precios' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'es');
    await screenshot(page, 'book-es-desktop');

    await page.getByLabel('Idioma').selectOption('pt');
    await page.getByRole('button', { name: 'Ver preços' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'pt');
    await page.getByLabel('Entrada').fill(checkIn);
    await page.getByLabel('Saída').fill(checkOut);
    await page.getByRole('button', { name: 'Ver preços' }).click();
    await page.locator('.offer').first().waitFor();
    // Portuguese money: euros with a decimal comma (Intl in the chosen language, hotel currency);
    // the browser names no Portuguese region, so Portugal's way: the sign after the amount.
    const total = await page.locator('.offer .total').first().innerText();
    assert.match(total, /^\d+,\d{2}\s€$/);
    assert.match(await page.locator('main').innerText(), /2 noites/);
    // The catalogue's Portuguese names; a plain name (the suite's) as it is.
    await page.locator('.offer').filter({ hasText: 'Quarto duplo · Flexível' }).waitFor();
    await page.locator('.offer').filter({ hasText: 'Suite · Flexível' }).waitFor();
    assert.match(await page.locator('form').innerText(), /Pequeno-almoço/);
    await assertNoBrokenText(page, 'book: offers in Portuguese');
    // Switching language names what is already shown in the new one.
    await page.getByLabel('Idioma').selectOption('es');
    await page.locator('.offer').filter({ hasText: 'Habitación doble · Flexible' }).waitFor();
    assert.match(await page.locator('form').innerText(), /Desayuno/);
    await page.getByLabel('Idioma').selectOption('pt');
    await page.locator('.offer').filter({ hasText: 'Quarto duplo · Flexível' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.reload();
    await page.getByRole('button', { name: 'Ver preços' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'pt', 'the switch is remembered across a reload');
  });

  it('speaks the guest’s language and region: Brazilian money and dates, problems in Portuguese', async () => {
    const { page, errors } = await openPage(browser, app.baseUrl, { ...PHONE, locale: 'pt-BR' });
    await page.goto(`${app.baseUrl}/book/${hotel.id}`);
    await page.getByLabel('Entrada').fill(checkIn);
    await page.getByLabel('Saída').fill(checkOut);
    await page.getByRole('button', { name: 'Ver preços' }).click();
    const flex = page.locator('.offer').filter({ hasText: 'Quarto duplo · Flexível' });
    await flex.waitFor();
    // pt-BR (from Accept-Language / the browser's languages): the sign first, dot thousands.
    assert.match(await flex.locator('.total').innerText(), /^€\s[\d.]+,\d{2}$/);
    assert.match(await flex.innerText(), / de [a-zç]{3}\.? de \d{4}/, 'a pt-BR medium date');
    await flex.getByRole('button', { name: /Escolher/ }).click();
    await page.getByRole('heading', { name: 'A sua estadia' }).waitFor();

    // The API answers in English; the page says it in Portuguese, next to the field.
    await page.getByLabel('Nome próprio').fill('Ana');
    await page.getByLabel('Apelido').fill('Souza');
    await page.getByLabel('E-mail').fill('not-an-email');
    await page.getByRole('button', { name: 'Reservar' }).click();
    const email = page.getByLabel('E-mail');
    const emailError = page.locator(`#${await email.getAttribute('id')}-error`);
    await emailError.waitFor();
    assert.equal(await emailError.innerText(), 'Escreva um e-mail como ana@example.com.');
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.equal(
      await page.locator('.form-alert').innerText(),
      'Há dados a corrigir: veja as mensagens junto aos campos.',
    );
    assert.equal(await page.locator('main [lang="en"]').count(), 0, 'no English left on the page');
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.deepEqual(errors, []);
  });

  it('answers an unknown hotel with a friendly 404 page', async () => {
    const { page, errors } = await openPage(browser, app.baseUrl, PHONE);
    const response = await page.goto(`${app.baseUrl}/book/no-such-hotel`);
    assert.equal(response?.status(), 404);
    await page.getByRole('heading', { name: 'Hotel not found' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.deepEqual(errors, []);
  });
});
