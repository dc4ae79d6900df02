import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { SCOPES } from '../../src/operator-access/scopes.ts';
import {
  assertNoBrokenText,
  DESKTOP,
  dateIn,
  launchChromium,
  openPage,
  type PagesApp,
  PHONE,
  screenshot,
  seriousA11yViolations,
  skipWithoutChromium,
  startPagesApp,
} from '../helpers/browser.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { makeHotel } from '../helpers/test-app.ts';

// /desk: an operator key → today's arrivals, search, a reservation's details; and, once the
// endpoints of the other operator work are served, the calendar and cancelling.

const base = makeHotel();
// The double room is named per language (API.md 9); the desk names it in the page's language.
const hotel = makeHotel({
  name: 'Harbour View',
  roomTypes: base.roomTypes.map((rt) =>
    rt.id === 'double'
      ? { ...rt, name: { en: 'Double Room', es: 'Habitación doble', pt: 'Quarto duplo' } }
      : rt,
  ),
});
const OPERATOR = '/api/v1/operator';

const hotelDate = (days = 0) => dateIn(hotel.timezone, days);

describe('front desk page', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  let key: string;
  before(async () => {
    [app, browser] = await Promise.all([startPagesApp([hotel]), launchChromium()]);
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
    await app?.t.close();
  });

  async function book(guest: { firstName: string; lastName: string }, fromToday: number, nights = 2) {
    const stay = {
      hotelId: hotel.id,
      checkIn: hotelDate(fromToday),
      checkOut: hotelDate(fromToday + nights),
      adults: 2,
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
      payload: { quoteId: quote.json().id, guest: { ...guest, email: 'guest@example.com' } },
    });
    assert.equal(reservation.statusCode, 201, reservation.body);
    return reservation.json().id as string;
  }

  /**
   * Whether another branch's endpoint is served yet: an unknown route answers 404 with
   * `unknownRoute: true` (not the 404 of an unknown reservation). When it is not, the test says so
   * and is skipped. The probe is a real request: probe a POST with a code that does not exist
   * (`NOSUCHRES`, a 404 `not_found` without `unknownRoute`), or it would do what it asks.
   */
  async function served(t: TestContext, method: 'GET' | 'POST' | 'PATCH', url: string, what: string) {
    const res = await app.t.inject({
      method,
      url: OPERATOR + url,
      headers: { authorization: `Bearer ${key}` },
    });
    if (res.statusCode === 404 && res.json().unknownRoute === true) {
      t.skip(`${method} ${OPERATOR}${url} is not served yet (${what} lands from another branch)`);
      return false;
    }
    return true;
  }

  async function signIn(page: Page) {
    await page.goto(`${app.baseUrl}/desk`);
    await page.getByRole('heading', { name: 'Open the front desk' }).waitFor();
    await page.getByLabel('Operator key').fill(key);
    await page.getByRole('button', { name: 'Open the desk' }).click();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
  }

  async function expectA11y(page: Page) {
    assert.deepEqual(await seriousA11yViolations(page), []);
  }

  it('on a phone: the key, today’s arrivals, a search by name, a reservation’s details', async () => {
    const arriving = await book({ firstName: 'João', lastName: 'Gonçalves' }, 0);
    const leaving = await book({ firstName: 'Ana', lastName: 'Silva' }, 0, 1);
    await book({ firstName: 'Later', lastName: 'Guest' }, 5);
    const { page, foreignRequests, errors } = await openPage(browser, app.baseUrl, PHONE);

    await page.goto(`${app.baseUrl}/desk`);
    await page.getByRole('heading', { name: 'Open the front desk' }).waitFor();
    await expectA11y(page);
    await screenshot(page, 'desk-key-phone');
    // A wrong key: the API's detail is shown.
    await page.getByLabel('Operator key').fill(`ik_${'x'.repeat(52)}`);
    await page.getByRole('button', { name: 'Open the desk' }).click();
    await page
      .locator('.form-alert')
      .filter({ hasText: /unknown or revoked/ })
      .waitFor();

    await page.getByLabel('Operator key').fill(key);
    await page.getByRole('button', { name: 'Open the desk' }).click();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
    const arrivals = page.locator('section', { has: page.getByRole('heading', { name: /arrival/ }) });
    await arrivals.getByText('João Gonçalves').waitFor();
    assert.match(await arrivals.innerText(), new RegExp(arriving));
    assert.match(await arrivals.innerText(), /Check-in not started/);
    assert.doesNotMatch(await arrivals.innerText(), /Later Guest/);
    // Ana arrives today too and leaves tomorrow; nobody leaves today.
    assert.match(await arrivals.innerText(), new RegExp(leaving));
    await expectA11y(page);
    await screenshot(page, 'desk-today-phone');

    // The key is in this tab's sessionStorage only: not in the URL, a cookie or localStorage.
    assert.equal(await page.evaluate("sessionStorage.getItem('innkeep.desk.key')"), key);
    assert.equal(await page.evaluate("JSON.stringify(localStorage).includes('ik_')"), false);
    assert.deepEqual(await page.context().cookies(), []);
    assert.ok(!page.url().includes('ik_'));
    // A reload keeps the desk open (same tab).
    await page.reload();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();

    await page.getByRole('button', { name: 'Search' }).first().click();
    await page.getByRole('heading', { name: 'Find a reservation' }).waitFor();
    await page.getByLabel('Code, name or e-mail').fill('goncalves');
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await page.getByRole('heading', { name: '1 reservation' }).waitFor();
    await expectA11y(page);
    await page.getByRole('button', { name: /João Gonçalves/ }).click();
    await page.getByRole('heading', { name: `Reservation ${arriving}` }).waitFor();
    const facts = await page.locator('.desk-facts').innerText();
    assert.match(facts, /João Gonçalves/);
    assert.match(facts, /Double Room/);
    await page.getByRole('heading', { name: 'Online check-in' }).waitFor();
    const detail = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/reservations/${arriving}`,
      headers: { authorization: `Bearer ${key}` },
    });
    if (detail.json().unknownRoute === true) {
      // A server without the detail endpoint: the page says the steps are unavailable (it knows
      // from `unknownRoute`, not from the English detail) and shows no error.
      await page.getByText('this server does not offer reservation details yet').waitFor();
      assert.equal(await page.locator('.form-alert').count(), 0);
    } else {
      // No check-in session yet, so no steps (API.md 7.2): the page says so, not an empty list.
      assert.deepEqual(detail.json().checkin.steps, []);
      await page.getByText('has not opened online check-in yet').waitFor();
      assert.equal(await page.locator('.desk-steps').count(), 0);
    }
    assert.match(facts, /2 adults, 1 room/);
    await expectA11y(page);
    await screenshot(page, 'desk-reservation-phone');

    // Spanish, with the same switch as the other pages.
    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('heading', { name: `Reserva ${arriving}` }).waitFor();
    await page.locator('.desk-facts').getByText('Habitación doble').waitFor();

    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
  });

  it('on a desktop: today, then the check-in steps of a reservation (once reservation details are served)', async (t) => {
    const code = await book({ firstName: 'Inês', lastName: 'Moura' }, 0);
    const { page, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await signIn(page);
    await page.getByText('Inês Moura').waitFor();
    await expectA11y(page);
    await screenshot(page, 'desk-today-desktop');
    if (!(await served(t, 'GET', `/reservations/${code}`, 'the reservation detail'))) return;
    // A reservation has check-in steps once the guest opens online check-in (API.md 7.2: none
    // before a session exists); this guest has also given their details.
    const opened = await app.t.inject({
      method: 'POST',
      url: '/api/v1/checkin/sessions',
      payload: { reservationId: code, lastName: 'Moura' },
    });
    assert.equal(opened.statusCode, 201, opened.body);
    const step = await app.t.inject({
      method: 'POST',
      url: `/api/v1/checkin/sessions/${opened.json().session.id}/step`,
      payload: {
        step: 'guest_details',
        data: {
          firstName: 'Inês',
          lastName: 'Moura',
          email: 'ines@example.com',
          dateOfBirth: '1990-04-02',
          nationality: 'PT',
          arrivalTime: '15:30',
        },
      },
    });
    assert.equal(step.statusCode, 200, step.body);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page
      .getByRole('button', { name: /Inês Moura/ })
      .getByText('Check-in in progress')
      .waitFor();
    await page.getByRole('button', { name: /Inês Moura/ }).click();
    await page.getByRole('heading', { name: `Reservation ${code}` }).waitFor();
    await page.locator('.desk-steps li').first().waitFor();
    const steps = page.locator('.desk-steps li');
    assert.match(
      await steps.first().innerText(),
      /Guest details\s+Done\s+Inês Moura · PT · arriving at 15:30/,
    );
    assert.match(await steps.nth(1).innerText(), /Other guests\s+To do/);
    assert.match(await page.locator('.desk-steps').innerText(), /Payment/);
    await expectA11y(page);
    await screenshot(page, 'desk-reservation-desktop');
    assert.deepEqual(errors, []);
  });

  it('shows a reservation’s guest e-mails and sends the invitation again', async () => {
    const code = await book({ firstName: 'Rita', lastName: 'Lobo' }, 0);
    const { page, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await signIn(page);
    await page.getByRole('button', { name: /Rita Lobo/ }).click();
    await page.getByRole('heading', { name: `Reservation ${code}` }).waitFor();
    const list = page.locator('.desk-message-list');
    await list.getByText('Booking confirmation').waitFor();
    assert.match(await list.innerText(), /Online check-in invitation\s+Queued/);
    await page.getByLabel('Send again').selectOption('checkin_invitation');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Queued: it goes out in a moment.').waitFor();
    await list.locator('li').nth(2).waitFor();
    await expectA11y(page);
    await screenshot(page, 'desk-messages-desktop');
    assert.deepEqual(errors, []);
  });

  it('changes a night’s price in the calendar, and the booking page shows it (once the calendar is served)', async (t) => {
    const night = hotelDate(3);
    if (!(await served(t, 'GET', `/hotels/${hotel.id}/calendar?from=${night}&to=${night}`, 'the calendar')))
      return;
    const { page, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await signIn(page);
    await page.getByRole('button', { name: 'Calendar' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    // Rate plans by name, not id.
    const first = page.locator(`.desk-cell[data-room-type="double"][data-date="${night}"]`);
    assert.match(await first.innerText(), /Flexible €120\.00/);
    assert.doesNotMatch(await first.innerText(), /flex €|nonref/);
    await first.click();
    await page.getByLabel(/Price per night, Flexible/).fill('150');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const cell = page.locator(`.desk-cell[data-room-type="double"][data-date="${night}"]`);
    assert.match(await cell.innerText(), /€150\.00/);
    await expectA11y(page);
    await screenshot(page, 'desk-calendar-desktop');

    await page.goto(`${app.baseUrl}/book/${hotel.id}`);
    await page.getByLabel('Check-in').fill(night);
    await page.getByLabel('Check-out').fill(hotelDate(4));
    await page.getByLabel('Adults').fill('2');
    await page.getByRole('button', { name: 'See prices' }).click();
    const flex = page.locator('.offer').filter({ hasText: 'Double Room · Flexible' });
    await flex.waitFor();
    assert.match(await flex.innerText(), /€150\.00/);
    assert.deepEqual(errors, []);
  });

  it('on a phone, the calendar shows its caption whole and a fortnight of nights, scrolling sideways', async () => {
    const { page, errors } = await openPage(browser, app.baseUrl, PHONE);
    await signIn(page);
    await page.getByRole('button', { name: 'Calendar' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    const caption = page.locator('.desk-grid-caption');
    await caption.waitFor();
    const box = await caption.boundingBox();
    const width = PHONE.viewport?.width ?? 390;
    assert.ok(box && box.x >= 0 && box.x + box.width <= width, 'the caption fits the screen');
    const fits = (selector: string) =>
      page.evaluate(
        `(() => { const el = document.querySelector('${selector}'); return el.scrollWidth <= el.clientWidth })()`,
      );
    assert.equal(await fits('.desk-grid-caption'), true, 'nothing of it cut off');
    const nights = await page.locator('.desk-grid thead th').count();
    assert.ok(nights - 1 >= 7, `at least a week of nights (${nights - 1})`);
    // The grid scrolls sideways inside its frame, not the page, and shows several nights at once.
    assert.equal(await fits('.desk-grid-wrap'), false, 'the grid scrolls inside its frame');
    assert.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true);
    const visible = await page.evaluate(`[...document.querySelectorAll('.desk-grid thead th')].slice(1)
      .filter((th) => th.getBoundingClientRect().right <= window.innerWidth).length`);
    assert.ok(Number(visible) >= 3, `${visible} nights in view on a phone`);
    await expectA11y(page);
    await screenshot(page, 'desk-calendar-phone');
    assert.deepEqual(errors, []);
  });

  it('cancels only after a confirmation showing the fee; keeping it changes nothing', async () => {
    // Tomorrow: past the free cancellation (2 days before), so the flexible rate's first night.
    const code = await book({ firstName: 'Carla', lastName: 'Nunes' }, 1);
    const { page, errors } = await openPage(browser, app.baseUrl, PHONE);
    await signIn(page);
    await page.getByRole('button', { name: 'Search' }).first().click();
    await page.getByLabel('Code, name or e-mail').fill(code);
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await page.getByRole('button', { name: /Carla Nunes/ }).click();
    await page.getByRole('heading', { name: `Reservation ${code}` }).waitFor();
    // Not arrived and not yet its day: no arrival, departure or no-show is offered.
    assert.equal(await page.getByRole('button', { name: 'Mark as arrived' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Mark as departed' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Record a no-show' }).count(), 0);
    await page.getByText(/The arrival can be recorded from/).waitFor();

    await page.getByRole('button', { name: 'Cancel reservation' }).click();
    const confirm = page.locator('#confirm-cancel');
    await confirm.waitFor();
    assert.match(await confirm.innerText(), /Cancel this reservation\? A fee of €120\.00 will be charged/);
    await expectA11y(page);
    await screenshot(page, 'desk-cancel-confirm-phone');
    await page.getByRole('button', { name: 'Keep the reservation' }).click();
    assert.equal(await page.locator('#confirm-cancel').count(), 0);
    const kept = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/reservations/${code}`,
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(kept.json().status, 'confirmed');

    await page.getByLabel('Reason (optional)').fill('guest called');
    await page.getByRole('button', { name: 'Cancel reservation' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByText('Reservation cancelled.').waitFor();
    assert.match(await page.locator('.desk-facts').innerText(), /Cancelled/);
    await page.getByText(/fee €120\.00/).waitFor();
    // Nothing more to do with a cancelled reservation.
    assert.equal(await page.locator('form.desk-cancel').count(), 0);
    await assertNoBrokenText(page, 'desk: cancelled');
    assert.deepEqual(errors, []);
  });

  it('cancels waiving the fee, and offers only what the stay allows once arrived and departed', async () => {
    const code = await book({ firstName: 'Rui', lastName: 'Costa' }, 1);
    const { page, errors } = await openPage(browser, app.baseUrl, DESKTOP);
    await signIn(page);
    const openReservation = async (reservation: string) => {
      await page.getByRole('button', { name: 'Search' }).first().click();
      await page.getByLabel('Code, name or e-mail').fill(reservation);
      await page.getByRole('button', { name: 'Search', exact: true }).last().click();
      await page.getByRole('button', { name: new RegExp(reservation) }).click();
      await page.getByRole('heading', { name: `Reservation ${reservation}` }).waitFor();
    };
    await openReservation(code);
    await page.getByLabel('Waive the cancellation fee').check();
    await page.getByRole('button', { name: 'Cancel reservation' }).click();
    assert.match(
      await page.locator('#confirm-cancel').innerText(),
      /The fee is waived: nothing will be charged/,
    );
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByText('Reservation cancelled.').waitFor();
    await page.getByText(/fee €0\.00/).waitFor();

    // Arriving today: arrival and cancellation are offered; once in house only the departure;
    // once departed, nothing (the API would refuse a cancellation then: 409).
    const today = await book({ firstName: 'Eva', lastName: 'Lopes' }, 0);
    await openReservation(today);
    await page.getByRole('button', { name: 'Mark as arrived' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Cancel reservation' }).count(), 1);
    await page.getByRole('button', { name: 'Mark as arrived' }).click();
    await page.getByText('Arrival recorded.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Cancel reservation' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Mark as arrived' }).count(), 0);
    await page.getByRole('button', { name: 'Mark as departed' }).click();
    await page.getByText('Departure recorded.').waitFor();
    for (const action of ['Cancel reservation', 'Mark as arrived', 'Mark as departed', 'Record a no-show']) {
      assert.equal(await page.getByRole('button', { name: action }).count(), 0, `${action} after check-out`);
    }
    await page.reload();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
    await openReservation(today);
    assert.equal(await page.locator('form.desk-cancel').count(), 0, 'not after reading it again either');
    await expectA11y(page);
    await assertNoBrokenText(page, 'desk: departed');
    assert.deepEqual(errors, []);
  });
});
