/**
 * The guest's `payment_request` e-mail (API.md 10, 14.2) over a real SMTP server: a deposit plan's
 * balance refused by the card on file is mailed to the guest, in the guest's language, with a link
 * to the reservation's check-in session, whose payment step then takes the balance.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { book, GUEST, type Json, stay } from '../booking/helpers.ts';
import { completeCheckin, getSession } from '../checkin/helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../messages/smtp-receiver.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { eventually } from '../postgres/support.ts';
import { depositPlan } from './deposit-plan.ts';

const hotel = makeHotel({
  name: 'Hotel del Puerto',
  email: 'hola@puerto.example',
  timezone: 'Europe/Lisbon',
  taxes: [],
});
hotel.ratePlans.push(depositPlan());

describe('the payment_request e-mail (API.md 14.2)', () => {
  let smtp: SmtpReceiver;
  let app: OperatorApp;
  before(async () => {
    smtp = await startSmtpReceiver();
    app = await startOperatorApp(
      {
        SMTP_URL: smtp.url,
        MAIL_WORKER: 'true',
        PUBLIC_BASE_URL: 'https://innkeep.test',
        MAIL_RETRY_BASE_SECONDS: '0.01',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        BALANCE_POLL_INTERVAL_MS: '50',
        CHECKIN_INVITE_TIME: '10:00',
      },
      [hotel, makeHotel()],
    );
  });
  after(async () => {
    await app?.t.close();
    await smtp?.close();
  });

  it('mails the guest, in their language, a link to pay the refused balance in the check-in', async () => {
    const { t, root } = app;
    const email = `marta.${Date.now()}@example.com`;
    const booking = {
      hotelId: hotel.id,
      ...stay(t, 12, 3),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'deposit',
    };
    const { reservation } = await book(t, booking, {
      guest: { ...GUEST, email, language: 'es' },
      payment: { token: 'tok_chargeCustomerFail' },
    });
    const code = reservation.id;
    const balance = reservation.payment.schedule.find((p: Json) => p.kind === 'balance');
    t.clock.advance(new Date(balance.dueAt).getTime() - t.clock.now().getTime() + 1000);

    const subject = `Pague el saldo de su reserva en Hotel del Puerto (${code})`;
    const mail = await eventually(`the payment request to ${email}`, async () =>
      smtp.mails.find((m) => m.subject === subject),
    );
    assert.deepEqual(
      [mail.to].flat().flatMap((a) => a?.value.map((v) => v.address)),
      [email],
    );
    assert.deepEqual(
      mail.replyTo?.value.map((a) => a.address),
      ['hola@puerto.example'],
    );
    // Spanish throughout: the intro and the button, the amount as Spain writes it.
    const text = (mail.text ?? '').replace(/\u00a0/g, ' ');
    assert.ok(text.includes('No hemos podido cobrar el saldo de su estancia en Hotel del Puerto'), text);
    assert.ok(text.includes('Pagar el saldo'), text);
    assert.match(text, /210,00 €/);
    // The link: the reservation's check-in session, whose next step to finish is the payment.
    const links = text.match(/https:\/\/innkeep\.test\/checkin\/(cks_[A-Za-z0-9_-]+)/g) ?? [];
    assert.equal(new Set(links).size, 1, text);
    const sessionId = (links[0] as string).split('/').at(-1) as string;
    assert.ok(String(mail.html).includes(`https://innkeep.test/checkin/${sessionId}`));
    const session = await getSession(t, sessionId);
    assert.equal(session.statusCode, 200, session.body);
    const opened = session.json().session;
    assert.equal(opened.reservation.id, code);
    assert.deepEqual(opened.reservation.balanceDue, { amount: 21000, currency: 'EUR' });
    assert.equal(opened.steps.find((s: Json) => s.name === 'payment').status, 'pending');

    // Recorded once, sent, in Spanish.
    const listed = await eventually('the payment request recorded sent', async () => {
      const res = await t.inject({
        method: 'GET',
        url: `${OPERATOR}/reservations/${code}/messages`,
        headers: auth(root),
      });
      const found = res.json().data.filter((m: Json) => m.kind === 'payment_request');
      return found.length === 1 && found[0].status === 'sent' ? found : undefined;
    });
    assert.equal(listed[0].language, 'es');
    assert.equal(listed[0].to, email);
    assert.equal(smtp.mails.filter((m) => m.subject === subject).length, 1);

    // Following the link pays the balance at the payment step.
    const done = await completeCheckin(
      t,
      sessionId,
      { code, token: '', reservation, checkIn: reservation.checkIn, checkOut: reservation.checkOut },
      1,
    );
    assert.equal(done.session.status, 'completed');
    assert.deepEqual(done.session.steps.find((s: Json) => s.name === 'payment').data.amount, {
      amount: 21000,
      currency: 'EUR',
    });
  });
});
