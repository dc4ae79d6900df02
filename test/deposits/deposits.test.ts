/**
 * Deposits, cards on file and balances (API.md 14.2) through HTTP on the real engine: the schedule,
 * the balance charged by the claim worker on the service's clock (once, across two apps racing and
 * across a restart), a refusal (failed, payment.failed, payment_request), charge-card's limits and
 * idempotency, cancellation's refund and modification's new schedule.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ratePlan } from '../../src/catalog/catalog.fixtures.ts';
import { CatalogError, parseCatalog } from '../../src/catalog/catalog.validate.ts';
import {
  assertProblem,
  book,
  cancel,
  type Json,
  modify,
  quoteOk,
  reserve,
  stay,
} from '../booking/helpers.ts';
import { completeCheckin, openedSession } from '../checkin/helpers.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { eventually } from '../postgres/support.ts';

const DAY = 24 * 3600 * 1000;
/** 30 % now, the rest 7 days before arrival at CHECKIN_INVITE_TIME; free cancellation until 2 days before. */
const DEPOSIT = ratePlan({
  id: 'deposit',
  name: 'Deposit 30%',
  prepayment: 'deposit',
  deposit: { percent: 30 },
  balanceDueDays: 7,
  prices: { double: { base: 10000, includedAdults: 2, extraAdult: 0, child: 0 } },
});
const hotel = makeHotel({ timezone: 'Europe/Lisbon', taxes: [] });
hotel.ratePlans.push(DEPOSIT);

const ENV = { BALANCE_POLL_INTERVAL_MS: '50', CHECKIN_INVITE_TIME: '10:00' };
/** Another app on the same database, with the same DATA_ENCRYPTION_KEY (the root key works on it). */
const sibling = () =>
  startTestApp({
    hotels: [hotel],
    env: { ...ENV, DATA_ENCRYPTION_KEY: (t.config.dataEncryptionKey as Buffer).toString('base64') },
  });

let app: OperatorApp;
let t: TestApp;
before(async () => {
  app = await startOperatorApp(ENV, [hotel, makeHotel()]);
  t = app.t;
});
after(async () => {
  await t?.close();
});

const depositStay = (target: TestApp, fromToday: number, nights = 3) => ({
  hotelId: hotel.id,
  ...stay(target, fromToday, nights),
  adults: 2,
  roomTypeId: 'double',
  ratePlanId: 'deposit',
});

async function readReservation(target: TestApp, code: string): Promise<Json> {
  const res = await target.inject({
    method: 'GET',
    url: `${OPERATOR}/reservations/${code}`,
    headers: auth(app.root),
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function folio(target: TestApp, code: string): Promise<Json> {
  const res = await target.inject({
    method: 'GET',
    url: `${OPERATOR}/reservations/${code}/folio`,
    headers: auth(app.root),
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function eventsOf(target: TestApp, code: string, type: string): Promise<Json[]> {
  const res = await target.inject({
    method: 'GET',
    url: `${OPERATOR}/events?types=${type}&limit=500`,
    headers: auth(app.root),
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data.filter((e: Json) => e.data.reservation?.id === code);
}

const balanceOf = (r: Json) => r.payment.schedule.find((p: Json) => p.kind === 'balance');

/** Waits until the worker settled the reservation's balance (paid or failed). */
const settled = (target: TestApp, code: string) =>
  eventually(`the balance of ${code} settled`, async () => {
    const r = await readReservation(target, code);
    return balanceOf(r)?.status === 'scheduled' ? undefined : r;
  });

describe('deposit plans in the catalogue', () => {
  const catalogueWith = (plan: object) => ({
    hotels: [{ ...makeHotel(), ratePlans: [{ ...ratePlan(), ...plan }] }],
  });
  const refused = (plan: object, pattern: RegExp) =>
    assert.throws(
      () => parseCatalog(catalogueWith(plan)),
      (e: unknown) => e instanceof CatalogError && pattern.test(e.message),
    );

  it('refuses a percent outside 1–100, both or neither of percent and nights, and a deposit on another plan', () => {
    refused({ prepayment: 'deposit', deposit: { percent: 0 } }, /deposit\/percent/);
    refused({ prepayment: 'deposit', deposit: { percent: 101 } }, /deposit\/percent/);
    refused({ prepayment: 'deposit', deposit: { percent: 20, nights: 1 } }, /exactly one/);
    refused({ prepayment: 'deposit' }, /needs "deposit"/);
    refused({ prepayment: 'full', deposit: { nights: 1 } }, /only a plan with "prepayment": "deposit"/);
    refused({ prepayment: 'deposit', deposit: { nights: 1 }, balanceDueDays: -1 }, /balanceDueDays/);
    const ok = parseCatalog(catalogueWith({ prepayment: 'deposit', deposit: { nights: 1 } }));
    assert.equal(ok.hotels[0]?.ratePlans[0]?.balanceDueDays, 0);
  });
});

describe('booking a deposit plan (test provider)', () => {
  it('answers 402 payment_required without a token, and books nothing', async () => {
    const quote = await quoteOk(t, depositStay(t, 20));
    assertProblem(await reserve(t, quote.id), 402, 'payment_required');
    const again = await reserve(t, quote.id, { payment: { token: 'tok_visa' } });
    assert.equal(again.statusCode, 201, again.body);
  });

  it('takes the deposit now and schedules the balance at checkIn − balanceDueDays, 10:00 hotel time', async () => {
    const body = depositStay(t, 20);
    const { reservation } = await book(t, body, { payment: { token: 'tok_visa' } });
    assert.equal(reservation.ratePlan.prepayment, 'deposit');
    assert.deepEqual(reservation.ratePlan.deposit, { percent: 30 });
    assert.equal(reservation.total.amount, 30000);
    assert.deepEqual(reservation.payment.paid, { amount: 9000, currency: 'EUR' });
    assert.deepEqual(reservation.payment.due, { amount: 21000, currency: 'EUR' });
    assert.equal(reservation.payment.status, 'unpaid');
    assert.deepEqual(reservation.payment.card, { brand: 'visa', last4: '4242' });
    const [deposit, balance] = reservation.payment.schedule;
    assert.equal(deposit.kind, 'deposit');
    assert.equal(deposit.status, 'paid');
    assert.equal(deposit.amount.amount, 9000);
    assert.equal(balance.kind, 'balance');
    assert.equal(balance.status, 'scheduled');
    assert.equal(balance.collection, 'card_on_file');
    assert.equal(balance.amount.amount, 21000);
    // 7 days before check-in at 10:00 in Lisbon (UTC+0 in winter, +1 in summer).
    const dueDate = new Date(`${body.checkIn}T12:00:00Z`);
    dueDate.setUTCDate(dueDate.getUTCDate() - 7);
    const wall = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Lisbon',
      dateStyle: 'short',
      timeStyle: 'short',
      hourCycle: 'h23',
    }).format(new Date(balance.dueAt));
    assert.equal(wall, `${dueDate.toISOString().slice(0, 10)}, 10:00`);
    const f = await folio(t, reservation.id);
    assert.equal(f.paid.amount, 9000);
    assert.equal(f.payments[0].method, 'card');
  });

  it('quotes the schedule the booking then takes: the deposit now, the balance and its due time', async () => {
    const body = depositStay(t, 21);
    const quote = await quoteOk(t, body);
    assert.deepEqual(
      quote.schedule.map((p: Json) => [p.kind, p.amount, p.collection]),
      [
        ['deposit', { amount: 9000, currency: 'EUR' }, 'card_on_file'],
        ['balance', { amount: 21000, currency: 'EUR' }, 'card_on_file'],
      ],
    );
    const res = await reserve(t, quote.id, { payment: { token: 'tok_visa' } });
    assert.equal(res.statusCode, 201, res.body);
    const booked = res.json().payment.schedule;
    assert.equal(quote.schedule[1].dueAt, booked[1].dueAt, 'the balance due when the quote said');
    assert.equal(booked[1].amount.amount, quote.schedule[1].amount.amount);
    // A stay inside balanceDueDays: the quote says all is due now, as the booking would take it.
    const late = await quoteOk(t, depositStay(t, 3));
    assert.deepEqual(
      late.schedule.map((p: Json) => [p.kind, p.amount.amount]),
      [['deposit', 30000]],
    );
    // Another plan has no schedule.
    assert.equal((await quoteOk(t, { ...body, ratePlanId: 'flex' })).schedule, undefined);
  });

  it('takes the deposit of the first n nights', async () => {
    const plan = ratePlan({
      id: 'first-night',
      name: 'First night now',
      prepayment: 'deposit',
      deposit: { nights: 1 },
      balanceDueDays: 0,
      prices: { double: { base: 10000, includedAdults: 2, extraAdult: 0, child: 0 } },
    });
    const other = makeHotel({ taxes: [] });
    other.ratePlans.push(plan);
    const local = await startTestApp({ hotels: [other], env: ENV });
    try {
      const { reservation } = await book(
        local,
        { ...depositStay(local, 20), hotelId: other.id, ratePlanId: 'first-night' },
        { payment: { token: 'tok_mastercard' } },
      );
      assert.equal(reservation.payment.paid.amount, 10000);
      const balance = balanceOf(reservation);
      assert.equal(balance.amount.amount, 20000);
      // balanceDueDays 0: paid at the hotel, never charged by itself.
      assert.equal(balance.collection, 'at_hotel');
    } finally {
      await local.close();
    }
  });

  it('charges everything at once for a stay booked after its balance is due', async () => {
    const { reservation } = await book(t, depositStay(t, 3), { payment: { token: 'tok_visa' } });
    assert.equal(reservation.payment.paid.amount, reservation.total.amount);
    assert.equal(reservation.payment.due.amount, 0);
    assert.equal(reservation.payment.status, 'paid');
    assert.equal(reservation.payment.schedule.length, 1);
    assert.equal(reservation.payment.schedule[0].kind, 'deposit');
  });

  it('refuses a declined card with 402 payment_failed and books nothing', async () => {
    const quote = await quoteOk(t, depositStay(t, 20));
    assertProblem(await reserve(t, quote.id, { payment: { token: 'tok_declined' } }), 402, 'payment_failed');
  });
});

describe('the balance, charged by the claim worker when due', () => {
  it('charges the balance once when the clock reaches its due time', async () => {
    const { reservation } = await book(t, depositStay(t, 12), { payment: { token: 'tok_visa' } });
    // Not before it is due.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(balanceOf(await readReservation(t, reservation.id)).status, 'scheduled');
    t.clock.advance(new Date(balanceOf(reservation).dueAt).getTime() - t.clock.now().getTime() + 1000);
    const paid = await settled(t, reservation.id);
    assert.equal(balanceOf(paid).status, 'paid');
    assert.equal(paid.payment.status, 'paid');
    assert.equal(paid.payment.due.amount, 0);
    assert.equal(paid.payment.paid.amount, 30000);
    const f = await folio(t, reservation.id);
    assert.deepEqual(
      f.payments.map((p: Json) => [p.method, p.amount.amount]),
      [
        ['card', 9000],
        ['card', 21000],
      ],
    );
    assert.equal(f.balance.amount, 0);
    const events = await eventsOf(t, reservation.id, 'payment.succeeded');
    assert.deepEqual(
      events.map((e) => [e.data.payment.purpose, e.data.payment.amount.amount]),
      [
        ['booking', 9000],
        ['balance', 21000],
      ],
    );
  });

  it('marks a refused balance failed, records payment.failed, queues payment_request; the check-in payment step pays it', async () => {
    const { reservation } = await book(t, depositStay(t, 11), {
      payment: { token: 'tok_chargeCustomerFail' },
    });
    t.clock.advance(new Date(balanceOf(reservation).dueAt).getTime() - t.clock.now().getTime() + 1000);
    const failed = await settled(t, reservation.id);
    assert.equal(balanceOf(failed).status, 'failed');
    assert.equal(failed.payment.due.amount, 21000);
    const [event] = await eventsOf(t, reservation.id, 'payment.failed');
    assert.equal(event?.data.payment.purpose, 'balance');
    assert.equal(event?.data.payment.amount.amount, 21000);
    const messages = await t.inject({
      method: 'GET',
      url: `${OPERATOR}/reservations/${reservation.id}/messages`,
      headers: auth(app.root),
    });
    assert.equal(messages.statusCode, 200, messages.body);
    assert.ok(messages.json().data.some((m: Json) => m.kind === 'payment_request'));
    // Never charged again by itself.
    t.clock.advance(DAY);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await folio(t, reservation.id)).payments.length, 1);
    // The guest pays it in the check-in session's payment step.
    const booked = {
      code: reservation.id,
      token: '',
      reservation,
      checkIn: reservation.checkIn,
      checkOut: reservation.checkOut,
    };
    const { id } = await openedSession(t, booked);
    const done = await completeCheckin(t, id, booked, 1);
    assert.equal(done.session.status, 'completed');
    const paid = await readReservation(t, reservation.id);
    assert.equal(paid.payment.due.amount, 0);
    assert.equal(balanceOf(paid).status, 'paid');
    assert.equal((await folio(t, reservation.id)).balance.amount, 0);
  });

  it('charges a balance due while the service was down once after it starts again', async () => {
    const first = await sibling();
    const { reservation } = await book(first, depositStay(first, 12), { payment: { token: 'tok_visa' } });
    const dueIn = new Date(balanceOf(reservation).dueAt).getTime() - first.clock.now().getTime();
    await first.close();
    const second = await sibling();
    try {
      second.clock.advance(dueIn + 3600_000);
      const paid = await settled(second, reservation.id);
      assert.equal(balanceOf(paid).status, 'paid');
      await new Promise((r) => setTimeout(r, 300));
      const f = await folio(second, reservation.id);
      assert.equal(f.payments.length, 2);
      assert.equal(f.paid.amount, 30000);
    } finally {
      await second.close();
    }
  });

  it('charges each balance once when two apps on one database race for the claims', async () => {
    const one = await sibling();
    const two = await sibling();
    try {
      const codes: string[] = [];
      let due = 0;
      for (let i = 0; i < 6; i++) {
        const { reservation } = await book(one, depositStay(one, 12 + (i % 3), 1), {
          payment: { token: 'tok_visa' },
        });
        codes.push(reservation.id);
        due = Math.max(due, new Date(balanceOf(reservation).dueAt).getTime());
      }
      const ahead = due - one.clock.now().getTime() + 1000;
      one.clock.advance(ahead);
      two.clock.advance(ahead);
      for (const code of codes) {
        const r = await settled(one, code);
        assert.equal(balanceOf(r).status, 'paid');
      }
      await new Promise((r) => setTimeout(r, 300));
      for (const code of codes) {
        const f = await folio(two, code);
        assert.equal(f.payments.length, 2, `${code}: deposit and balance, each once`);
        assert.equal(f.balance.amount, 0);
      }
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('charge-card', () => {
  const chargeCard = (code: string, body: object, key?: string) =>
    t.inject({
      method: 'POST',
      url: `${OPERATOR}/reservations/${code}/charge-card`,
      headers: { ...auth(app.root), ...(key ? { 'idempotency-key': key } : {}) },
      payload: body,
    });

  it('never charges above the folio balance, charges once per Idempotency-Key, shows in the folio', async () => {
    const { reservation } = await book(t, depositStay(t, 25), { payment: { token: 'tok_visa' } });
    const code = reservation.id;
    assertProblem(
      await chargeCard(code, { amount: 21001, reason: 'balance' }),
      409,
      'amount_exceeds_balance',
    );
    assertProblem(await chargeCard(code, { amount: 0, reason: 'balance' }), 400, 'validation_error');
    assertProblem(await chargeCard(code, { amount: 100 }), 400, 'validation_error');
    assertProblem(await chargeCard(code, { amount: 100, reason: 'x', extra: 1 }), 400, 'validation_error');
    assert.equal((await folio(t, code)).payments.length, 1, 'nothing changed');

    const first = await chargeCard(code, { amount: 5000, reason: 'no-show fee' }, 'cc-1');
    assert.equal(first.statusCode, 201, first.body);
    const again = await chargeCard(code, { amount: 5000, reason: 'no-show fee' }, 'cc-1');
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), first.json());
    assert.equal(first.json().payment.method, 'card');
    assert.equal(first.json().balance.amount, 16000);
    const f = await folio(t, code);
    assert.equal(f.payments.length, 2);
    assert.equal(f.balance.amount, 16000);
    // One audit entry (API.md 12): the refused requests and the replay wrote none.
    const audit = await t.inject({
      method: 'GET',
      url: `${OPERATOR}/audit-log?action=folio.card_charged`,
      headers: auth(app.root),
    });
    const charged = audit.json().data.filter((e: Json) => e.target.id === code);
    assert.equal(charged.length, 1, audit.body);
    assert.equal(charged[0].actor.type, 'key');
    assert.deepEqual(charged[0].details, {
      paymentId: first.json().payment.id,
      amount: 5000,
      currency: 'EUR',
      reason: 'no-show fee',
    });

    // The balance by default: everything left, and the scheduled balance is then paid.
    const rest = await chargeCard(code, { reason: 'balance' }, 'cc-2');
    assert.equal(rest.statusCode, 201, rest.body);
    assert.equal(rest.json().payment.amount.amount, 16000);
    const r = await readReservation(t, code);
    assert.equal(r.payment.due.amount, 0);
    assert.equal(balanceOf(r).status, 'paid');
    assertProblem(await chargeCard(code, { reason: 'balance' }), 409, 'amount_exceeds_balance');
  });

  it('answers a decline 402 payment_failed, records payment.failed once and no payment', async () => {
    const { reservation } = await book(t, depositStay(t, 26), {
      payment: { token: 'tok_chargeCustomerFail' },
    });
    const code = reservation.id;
    const declined = await chargeCard(code, { amount: 5000, reason: 'no-show fee' }, 'cc-declined');
    assertProblem(declined, 402, 'payment_failed');
    // The same key answers the same, and charges (or records) nothing again.
    const replay = await chargeCard(code, { amount: 5000, reason: 'no-show fee' }, 'cc-declined');
    assert.equal(replay.statusCode, 402, replay.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, declined.body);

    const failed = await eventsOf(t, code, 'payment.failed');
    assert.deepEqual(
      failed.map((e) => [e.data.payment.purpose, e.data.payment.amount.amount, e.data.payment.reason]),
      [['card_on_file', 5000, 'no-show fee']],
    );
    const succeeded = await eventsOf(t, code, 'payment.succeeded');
    assert.deepEqual(
      succeeded.map((e) => e.data.payment.purpose),
      ['booking'],
      'only the deposit succeeded',
    );
    const f = await folio(t, code);
    assert.deepEqual(
      f.payments.map((p: Json) => [p.method, p.amount.amount]),
      [['card', 9000]],
    );
    const r = await readReservation(t, code);
    assert.equal(r.payment.paid.amount, 9000);
    assert.equal(balanceOf(r).status, 'scheduled');
  });

  it('answers 409 no_card_on_file for a reservation without one', async () => {
    const { reservation } = await book(t, { ...depositStay(t, 25), ratePlanId: 'flex' });
    assertProblem(await chargeCard(reservation.id, { reason: 'no-show fee' }), 409, 'no_card_on_file');
  });
});

describe('cancelling and changing a deposit stay', () => {
  it('refunds the deposit beyond the fee and cancels the balance', async () => {
    const { reservation, token } = await book(t, depositStay(t, 30), { payment: { token: 'tok_visa' } });
    const res = await cancel(t, reservation.id, token);
    assert.equal(res.statusCode, 200, res.body);
    const cancelled = res.json();
    assert.equal(cancelled.cancellation.fee.amount, 0);
    assert.equal(cancelled.cancellation.refund.amount, 9000);
    assert.equal(cancelled.payment.status, 'refunded');
    assert.equal(balanceOf(cancelled).status, 'cancelled');
    t.clock.advance(new Date(balanceOf(reservation).dueAt).getTime() - t.clock.now().getTime() + 1000);
    await new Promise((r) => setTimeout(r, 300));
    const f = await folio(t, reservation.id);
    assert.deepEqual(
      f.payments.map((p: Json) => [p.kind, p.amount.amount]),
      [
        ['payment', 9000],
        ['refund', 9000],
      ],
    );
  });

  it('keeps the deposit and re-schedules the balance of a changed stay', async () => {
    const { reservation, token } = await book(t, depositStay(t, 40), { payment: { token: 'tok_visa' } });
    const longer = addDaysTo(reservation.checkOut, 1);
    const res = await modify(t, reservation.id, token, { checkOut: longer });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json();
    assert.equal(changed.total.amount, 40000);
    assert.equal(changed.payment.paid.amount, 9000);
    assert.equal(balanceOf(changed).amount.amount, 31000);
    assert.equal(balanceOf(changed).status, 'scheduled');
    assert.equal(changed.payment.schedule[0].amount.amount, 9000);
  });
});

function addDaysTo(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
