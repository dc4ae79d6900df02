/**
 * Caps on guest messages (API.md 10; issue 32, item 3): a reservation's `booking_modified` at most
 * 3 an hour (later changes of the hour are held back and told together, once, at its end), and no
 * address more than 10 messages a day from guests' own requests to one hotel, counted in the database in the
 * change's transaction, so that concurrent bookings (several connections on PostgreSQL) cannot
 * overshoot. A capped message never fails the change. The address a reservation's e-mail leaves
 * is told where its messages go now, masked, and nothing more.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { modify } from '../booking/helpers.ts';
import { bookStay } from '../checkin/helpers.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { eventually } from '../postgres/support.ts';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.ts';

type Message = Record<string, unknown>;

describe('caps on guest messages', () => {
  let smtp: SmtpReceiver;
  let app: OperatorApp;
  before(async () => {
    smtp = await startSmtpReceiver();
    app = await startOperatorApp({
      SMTP_URL: smtp.url,
      MAIL_WORKER: 'true',
      PUBLIC_BASE_URL: 'https://innkeep.test',
      MAIL_RETRY_BASE_SECONDS: '0.05',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
  });
  after(async () => {
    await app.t.close();
    await smtp.close();
  });

  const messagesOf = async (code: string): Promise<Message[]> => {
    const res = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/reservations/${code}/messages`,
      headers: auth(app.root),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const mailsTo = (address: string) => smtp.mails.filter((m) => JSON.stringify(m.to).includes(address));
  const book = (email: string, fromToday: number) =>
    bookStay(app.t, app.hotels[0], { guest: { firstName: 'Ana', lastName: 'Silva', email }, fromToday });

  it('mails at most 3 changes of a reservation an hour; the rest are held back into one, and every change succeeds', async () => {
    const email = `hourly.${Date.now()}@example.com`;
    const booked = await book(email, 20);
    for (let i = 1; i <= 6; i++) {
      const res = await modify(app.t, booked.code, booked.token, { specialRequests: `request ${i}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().specialRequests, `request ${i}`);
    }
    const changes = (await messagesOf(booked.code)).filter((m) => m.kind === 'booking_modified');
    assert.equal(changes.length, 4, JSON.stringify(changes));
    const [first, , third, held] = changes as [Message, Message, Message, Message];
    assert.equal(held.status, 'queued');
    const heldFor = Date.parse(String(held.sendAfter)) - Date.parse(String(first.createdAt));
    assert.ok(Math.abs(heldFor - 3600_000) < 1000, `held back to an hour after the first: ${heldFor} ms`);
    await eventually('three change mails sent', async () =>
      mailsTo(email).filter((m) => /changed/.test(m.subject ?? '')).length >= 3 ? true : undefined,
    );
    assert.equal(third.to, email);
    // Cancelled, the stay's held-back change is old news: it goes, the cancellation is told.
    const cancelled = await app.t.inject({
      method: 'POST',
      url: `/api/v1/booking/reservations/${booked.code}/cancel`,
      headers: { authorization: `Bearer ${booked.token}` },
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const left = await messagesOf(booked.code);
    assert.ok(!left.some((m) => m.id === held.id));
    assert.deepEqual(
      left.filter((m) => m.kind === 'booking_modified' || m.kind === 'booking_cancelled').map((m) => m.kind),
      ['booking_modified', 'booking_modified', 'booking_modified', 'booking_cancelled'],
    );
  });

  it('mails no address more than 10 messages a day from guests’ requests to one hotel, even booked at once; the bookings all succeed', async () => {
    const victim = `victim.${Date.now()}@example.com`;
    const booked = await Promise.all(Array.from({ length: 12 }, (_, i) => book(victim, 30 + i)));
    let confirmations = 0;
    for (const b of booked) {
      const kinds = (await messagesOf(b.code)).map((m) => m.kind);
      confirmations += kinds.filter((k) => k === 'booking_confirmation').length;
    }
    assert.equal(confirmations, 10);
    // A guest's change and cancellation add nothing more to that address today.
    const last = booked[0] as (typeof booked)[number];
    assert.equal((await modify(app.t, last.code, last.token, { specialRequests: 'again' })).statusCode, 200);
    const cancelled = await app.t.inject({
      method: 'POST',
      url: `/api/v1/booking/reservations/${last.code}/cancel`,
      headers: { authorization: `Bearer ${last.token}` },
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const kinds = (await messagesOf(last.code)).map((m) => m.kind);
    assert.ok(!kinds.includes('booking_modified') && !kinds.includes('booking_cancelled'), String(kinds));
    const total = (await Promise.all(booked.map((b) => messagesOf(b.code))))
      .flat()
      .filter((m) => m.to === victim && m.kind !== 'checkin_invitation');
    assert.equal(total.length, 10);
    // The hotel's own change is told whatever the guests did.
    const other = booked[1] as (typeof booked)[number];
    const byHotel = await app.t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/reservations/${other.code}`,
      headers: auth(app.root),
      payload: { specialRequests: 'sea view, by the desk' },
    });
    assert.equal(byHotel.statusCode, 200, byHotel.body);
    assert.ok((await messagesOf(other.code)).some((m) => m.kind === 'booking_modified'));
    // The cap is per hotel (issue 37): a booking at the other hotel is still confirmed to the address.
    const elsewhere = await bookStay(app.t, app.hotels[1], {
      guest: { firstName: 'Ana', lastName: 'Silva', email: victim },
      fromToday: 30,
    });
    assert.ok((await messagesOf(elsewhere.code)).some((m) => m.kind === 'booking_confirmation'));
  });

  it('tells the previous address that the e-mail changed, masked, and nothing else', async () => {
    const before = `before.${Date.now()}@example.com`;
    const after = `after.${Date.now()}@example.org`;
    const booked = await book(before, 50);
    const res = await modify(app.t, booked.code, booked.token, {
      guest: { email: after, firstName: 'Visit https://evil.example/' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const messages = await messagesOf(booked.code);
    assert.deepEqual(
      messages.filter((m) => m.kind === 'booking_modified').map((m) => m.to),
      [after, before],
    );
    const notice = await eventually('the notice to the previous address', async () =>
      mailsTo(before).find((m) => /e-mail address/.test(m.subject ?? '')),
    );
    assert.match(notice.subject ?? '', new RegExp(booked.code));
    assert.match(notice.text ?? '', /a\*\*\*@example\.org/);
    assert.ok(!JSON.stringify(notice).includes(after), 'the new address is masked');
    assert.ok(!JSON.stringify(notice).includes('evil.example'), 'no name typed by whoever changed it');
    assert.equal(notice.attachments.length, 0);
    // The new address gets the change itself.
    await eventually('the change at the new address', async () =>
      mailsTo(after).find((m) => /changed/.test(m.subject ?? '')),
    );
  });
});
