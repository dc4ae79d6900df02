import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import {
  bookStay,
  GUEST_DETAILS,
  identityDocument,
  openedSession,
  SIGNATURE,
  stepOk,
} from '../checkin/helpers.ts';
import {
  launchChromium,
  openPage,
  type PagesApp,
  PHONE,
  screenshot,
  seriousA11yViolations,
  skipWithoutChromium,
  startPagesApp,
} from '../helpers/browser.ts';
import { FakeStripe } from '../helpers/fake-stripe.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';

// With PAYMENT_PROVIDER=stripe the booking page's prepaid plans and the check-in payment step take
// the card with Stripe Elements, 3-D Secure included: here against a stand-in for Stripe.js served
// locally (STRIPE_JS_URL) and the local server answering like Stripe's API behind the service.

const hotel = makeHotel({ name: 'Harbour View' });

describe('card payments with Stripe on the pages', { skip: skipWithoutChromium }, () => {
  const stripe = new FakeStripe();
  let app: PagesApp;
  let browser: Browser;
  before(async () => {
    await stripe.start();
    [app, browser] = await Promise.all([startPagesApp([hotel], stripe.env()), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
    await stripe.stop();
  });

  const standInOnly = (requests: string[]) =>
    assert.deepEqual(
      requests.filter((url) => !url.startsWith(`${stripe.url}/`)),
      [],
      'no request but to the service and Stripe(.js)',
    );

  async function payWith(page: Page, number: string, button: RegExp) {
    const card = page.getByLabel('Card number');
    await card.fill(number);
    await page.getByRole('button', { name: button }).click();
  }

  it('books a prepaid plan: Stripe Elements, a decline shown, then 3-D Secure completed in the page', async () => {
    const { page, foreignRequests, errors } = await openPage(browser, app.baseUrl, PHONE);
    const response = await page.goto(`${app.baseUrl}/book/${hotel.id}`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    assert.match(csp, new RegExp(`script-src 'self' ${stripe.url}`));
    assert.match(csp, new RegExp(`frame-src ${stripe.url}`));
    await page.getByLabel('Check-in').fill(daysFromNow(30));
    await page.getByLabel('Check-out').fill(daysFromNow(32));
    await page.getByLabel('Adults').fill('2');
    await page.getByRole('button', { name: 'See prices' }).click();
    const nonref = page.locator('.offer').filter({ hasText: 'Double Room · Non-refundable' });
    await nonref.getByRole('button', { name: /Choose/ }).click();
    await page.getByLabel('First name').fill('Rui');
    await page.getByLabel('Last name').fill('Costa');
    await page.getByLabel('E-mail').fill('rui@example.com');
    await page.getByLabel('Card number').waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /Test cards/);
    await screenshot(page, 'book-stripe-phone');

    await payWith(page, '4000 0000 0000 0002', /^Pay .* and book$/);
    await page.locator('.form-alert').waitFor();
    assert.match(await page.locator('.form-alert').innerText(), /declined/i);
    assert.deepEqual(await seriousA11yViolations(page), []);

    const before = stripe.succeededCount();
    await payWith(page, '4000 0027 6000 3184', /^Pay .* and book$/);
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    assert.match(await page.locator('main').innerText(), /Paid: €/);
    assert.equal(stripe.succeededCount(), before + 1);
    const intent = [...stripe.intents.values()].at(-1);
    assert.equal(intent?.payment_method, 'pm_card_threeDSecure2Required');
    assert.equal(intent?.status, 'succeeded');
    standInOnly(foreignRequests);
    assert.deepEqual(errors, []);
    assert.deepEqual(stripe.violations, []);
  });

  it('pays the balance at check-in with Stripe Elements', async () => {
    const booked = await bookStay(app.t, hotel, { fromToday: 8, nights: 2 });
    const { id } = await openedSession(app.t, booked);
    await stepOk(app.t, id, 'guest_details', GUEST_DETAILS);
    await stepOk(app.t, id, 'identity_document', identityDocument(booked.checkOut));
    await stepOk(app.t, id, 'signature', SIGNATURE);

    const { page, foreignRequests, errors } = await openPage(browser, app.baseUrl, PHONE);
    await page.goto(`${app.baseUrl}/checkin/${id}`);
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    await page.getByLabel('Card number').waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /Test cards/);
    await screenshot(page, 'checkin-stripe-phone');
    const before = stripe.succeededCount();
    await payWith(page, '4242 4242 4242 4242', /^Pay /);
    await page.locator('.verification').waitFor();
    assert.equal(stripe.succeededCount(), before + 1);
    const intent = [...stripe.intents.values()].at(-1);
    assert.equal(intent?.amount, booked.reservation.total.amount);
    standInOnly(foreignRequests);
    assert.deepEqual(errors, []);
  });

  it('shows the desk the payments Stripe reported: a dispute opened', async () => {
    const booked = await bookStay(app.t, hotel, {
      fromToday: 0,
      nights: 1,
      ratePlanId: 'nonref',
      payment: { token: 'pm_card_visa' },
    });
    const intent = [...stripe.intents.values()].at(-1);
    assert.ok(intent);
    const dispute = stripe.signedEvent('charge.dispute.created', {
      id: 'dp_desk',
      object: 'dispute',
      amount: intent.amount,
      currency: intent.currency,
      payment_intent: intent.id,
      reason: 'fraudulent',
    });
    const delivered = await app.t.inject({
      method: 'POST',
      url: '/api/v1/payments/stripe/webhook',
      payload: dispute.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': dispute.signature },
    });
    assert.equal(delivered.json().outcome, 'applied');
    const dataKey = app.t.config.dataEncryptionKey as Buffer;
    const { secret } = await app.t.db.transaction((tx) =>
      insertCliKey(tx, operatorKeyHasher(dataKey), {
        name: 'front desk',
        scopes: ['reservations:read'],
        hotelIds: null,
      }),
    );
    const { page, errors } = await openPage(browser, app.baseUrl, PHONE);
    await page.goto(`${app.baseUrl}/desk`);
    await page.getByLabel('Operator key').fill(secret);
    await page.getByRole('button', { name: 'Open the desk' }).click();
    const alerts = page.getByRole('region', { name: 'Payments to look at' });
    await alerts.waitFor();
    const text = await alerts.innerText();
    assert.match(
      text,
      new RegExp(`Payment disputed by the card holder · ${booked.code} · €[\\d.,]+ · fraudulent`),
    );
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.deepEqual(errors, []);
  });
});
