import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { addDays, zonedInstant } from '../../src/dates/dates.ts';
import { depositPlan } from '../deposits/deposit-plan.ts';
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
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';

// /book/{hotel} with a deposit plan (API.md 14.2): the offer says a deposit is taken now and the
// rest later; the quote and the confirmation show the deposit due now and the balance due later
// (amount, and the moment the card on file is charged: balanceDueDays before arrival at
// CHECKIN_INVITE_TIME, hotel time), in the guest's language, as the API's `schedule` gives them.

const checkIn = daysFromNow(30);
const checkOut = addDays(checkIn, 3);
const TZ = 'Europe/Lisbon';
const hotel = makeHotel({ name: 'Harbour View', timezone: TZ, taxes: [], services: [] });
hotel.ratePlans.push(depositPlan());
// 3 nights at 100,00: 90,00 now (30 %), 210,00 on checkIn − 7 days at 10:00 in Lisbon.
const DEPOSIT = 9000;
const BALANCE = 21000;
const BALANCE_DUE = zonedInstant(addDays(checkIn, -7), '10:00', TZ);

const LANGUAGES = [
  {
    locale: 'en-GB',
    checkIn: 'Check-in',
    checkOut: 'Check-out',
    search: 'See prices',
    choose: 'Choose',
    stay: 'Your stay',
    offer: 'A deposit now; the rest is charged to your card 7 days before arrival.',
    now: 'Due now (deposit): {amount}',
    paid: 'Paid now (deposit): {amount}',
    later: 'Due later: {amount}, charged to the same card on {date}',
    firstName: 'First name',
    lastName: 'Last name',
    email: 'E-mail',
    pay: 'Pay {total} and book',
    confirmed: 'Your booking is confirmed',
  },
  {
    locale: 'es-ES',
    checkIn: 'Entrada',
    checkOut: 'Salida',
    search: 'Ver precios',
    choose: 'Elegir',
    stay: 'Su estancia',
    offer: 'Un depósito ahora; el resto se cobra en su tarjeta 7 días antes de la llegada.',
    now: 'A pagar ahora (depósito): {amount}',
    paid: 'Pagado ahora (depósito): {amount}',
    later: 'A pagar después: {amount}, cobrado en la misma tarjeta el {date}',
    firstName: 'Nombre',
    lastName: 'Apellidos',
    email: 'Correo electrónico',
    pay: 'Pagar {total} y reservar',
    confirmed: 'Su reserva está confirmada',
  },
  {
    locale: 'pt-PT',
    checkIn: 'Entrada',
    checkOut: 'Saída',
    search: 'Ver preços',
    choose: 'Escolher',
    stay: 'A sua estadia',
    offer: 'Um depósito agora; o resto é cobrado no seu cartão 7 dias antes da chegada.',
    now: 'A pagar agora (depósito): {amount}',
    paid: 'Pago agora (depósito): {amount}',
    later: 'A pagar depois: {amount}, cobrado no mesmo cartão em {date}',
    firstName: 'Nome próprio',
    lastName: 'Apelido',
    email: 'E-mail',
    pay: 'Pagar {total} e reservar',
    confirmed: 'A sua reserva está confirmada',
  },
];

/** Money and an instant as the language's locale writes them (Intl, as the page's i18n.js does). */
const euros = (locale: string, minor: number) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(minor / 100);
const when = (locale: string, at: Date) =>
  new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: TZ,
  }).format(at);
const fill = (text: string, vars: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? `{${name}}`);

describe('booking page: a deposit plan', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  before(async () => {
    [app, browser] = await Promise.all([
      startPagesApp([hotel], { CHECKIN_INVITE_TIME: '10:00' }),
      launchChromium(),
    ]);
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
  });

  for (const [index, l] of LANGUAGES.entries()) {
    it(`shows the deposit due now and the balance due later, and books with a card (${l.locale})`, async () => {
      const { page, foreignRequests, errors } = await openPage(browser, app.baseUrl, {
        ...DESKTOP,
        locale: l.locale,
      });
      const now = fill(l.now, { amount: euros(l.locale, DEPOSIT) });
      const later = fill(l.later, { amount: euros(l.locale, BALANCE), date: when(l.locale, BALANCE_DUE) });
      await page.goto(`${app.baseUrl}/book/${hotel.id}`);
      await page.getByLabel(l.checkIn, { exact: true }).fill(checkIn);
      await page.getByLabel(l.checkOut, { exact: true }).fill(checkOut);
      await page.getByRole('button', { name: l.search }).click();

      const offer = page.locator('.offer').filter({ hasText: 'Deposit 30%' }).first();
      await offer.waitFor();
      assert.ok((await offer.innerText()).includes(l.offer), await offer.innerText());
      await offer.getByRole('button', { name: new RegExp(l.choose) }).click();

      await page.getByRole('heading', { name: l.stay }).waitFor();
      const quoted = page.locator('[data-schedule]');
      assert.deepEqual(await quoted.locator('li').allInnerTexts(), [now, later]);
      // The card pays the deposit only.
      const pay = page.getByRole('button', { name: fill(l.pay, { total: euros(l.locale, DEPOSIT) }) });
      assert.equal(await pay.count(), 1);
      assert.deepEqual(await seriousA11yViolations(page), []);
      if (index === 0) await screenshot(page, 'book-deposit-desktop');

      await page.getByLabel(l.firstName).fill('Marta');
      await page.getByLabel(l.lastName).fill('Ruiz');
      await page.getByLabel(l.email).fill('marta@example.com');
      await pay.click();
      await page.getByRole('heading', { name: l.confirmed }).waitFor();
      const code = await page.locator('#reservation-code').innerText();
      const done = page.locator('[data-schedule]');
      assert.deepEqual(await done.locator('li').allInnerTexts(), [
        fill(l.paid, { amount: euros(l.locale, DEPOSIT) }),
        later,
      ]);
      assert.deepEqual(await seriousA11yViolations(page), []);

      // What the page showed is what was booked: the deposit charged, the balance scheduled then.
      const { rows } = await app.t.db.query<{
        paid_amount: string | number;
        stay: { paymentSchedule: unknown };
      }>('SELECT paid_amount, stay FROM reservations WHERE code = $1', [code]);
      const [booked] = rows;
      assert.ok(booked, code);
      assert.equal(Number(booked.paid_amount), DEPOSIT);
      assert.deepEqual(
        (booked.stay.paymentSchedule as { kind: string; amount: number; dueAt: string }[]).map((p) => [
          p.kind,
          p.amount,
          p.kind === 'balance' ? new Date(p.dueAt).getTime() : null,
        ]),
        [
          ['deposit', DEPOSIT, null],
          ['balance', BALANCE, BALANCE_DUE.getTime()],
        ],
      );
      assert.deepEqual(foreignRequests, []);
      assert.deepEqual(errors, []);
    });
  }
});
