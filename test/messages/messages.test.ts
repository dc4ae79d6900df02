/**
 * Guest messages over a real SMTP server (API.md 10): what each message holds, in the guest's
 * language, with its calendar file read by an independent iCalendar parser (node-ical); the
 * operator API; retries after 451 and failure after 550.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import ical from 'node-ical';
import { post } from '../booking/helpers.ts';
import { bookStay, completeCheckin, GUEST_DETAILS } from '../checkin/helpers.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { eventually } from '../postgres/support.ts';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.ts';

const BASE = 'https://innkeep.test';

describe('guest messages over SMTP', () => {
  let smtp: SmtpReceiver;
  let app: OperatorApp;
  let t: TestApp;
  before(async () => {
    smtp = await startSmtpReceiver();
    app = await startOperatorApp(
      {
        SMTP_URL: smtp.url,
        MAIL_WORKER: 'true',
        PUBLIC_BASE_URL: BASE,
        MAIL_RETRY_BASE_SECONDS: '0.01',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        CHECKIN_INVITE_DAYS: '3',
      },
      [makeHotel({ name: 'Harbour View', email: 'stay@harbour.example' }), makeHotel({ name: 'Old Town' })],
    );
    t = app.t;
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  const mailsTo = (to: string) => smtp.mails.filter((m) => m.to && JSON.stringify(m.to).includes(to));
  const mailOf = (to: string, subject: RegExp) =>
    eventually(`a mail to ${to} matching ${subject}`, async () =>
      mailsTo(to).find((m) => subject.test(m.subject ?? '')),
    );
  const calendarOf = (mail: ParsedMail) => {
    const attachment = mail.attachments.find((a) => a.filename === 'reservation.ics');
    assert.ok(attachment, 'reservation.ics attached');
    assert.match(attachment.contentType, /^text\/calendar/);
    const text = attachment.content.toString('utf8');
    const events = Object.values(ical.sync.parseICS(text)).filter((c) => c?.type === 'VEVENT');
    assert.equal(events.length, 1);
    return { text, event: events[0] as ical.VEvent };
  };
  const messagesOf = async (code: string) => {
    const res = await t.inject({
      method: 'GET',
      url: `${OPERATOR}/reservations/${code}/messages`,
      headers: auth(app.root),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Array<Record<string, unknown>>;
  };

  const sentMessage = (code: string, index: number) =>
    eventually(`message ${index} of ${code} recorded sent`, async () => {
      const m = (await messagesOf(code))[index];
      return m?.status === 'sent' ? m : undefined;
    });

  it('confirms a booking: prices, terms, payment, calendar file and JSON-LD, from MAIL_FROM with Reply-To', async () => {
    const hotel = app.hotels[0];
    const email = `ana.${Date.now()}@example.com`;
    const booked = await bookStay(t, hotel, {
      guest: { firstName: 'Ana', lastName: 'Silva', email },
      fromToday: 10,
    });
    const mail = await mailOf(email, /confirmed/);
    assert.deepEqual(mail.from?.value, [{ name: 'Innkeep', address: 'no-reply@innkeep.test' }]);
    assert.equal(mail.replyTo?.value[0]?.address, 'stay@harbour.example');
    assert.match(mail.subject ?? '', new RegExp(booked.code));
    assert.match(String(mail.messageId), /^<msg_[0-9a-z]+@innkeep\.test>$/);
    assert.ok(mail.text?.includes(booked.code));
    assert.ok(mail.text?.includes('Free cancellation until'));
    assert.ok(mail.text?.includes('Due at the hotel'));
    assert.ok(String(mail.html).includes('max-width:600px'));
    assert.ok(!/<img|https?:\/\/[^"]*\.(png|jpg|gif)/.test(mail.html || ''), 'no external images');
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(mail.html || '');
    assert.ok(ld, 'JSON-LD in the HTML');
    const data = JSON.parse(ld[1] as string);
    assert.equal(data['@type'], 'LodgingReservation');
    assert.equal(data.reservationNumber, booked.code);
    assert.equal(data.reservationStatus, 'https://schema.org/ReservationConfirmed');
    assert.equal(data.underName.name, 'Ana Silva');
    assert.equal(data.reservationFor.name, hotel.name);
    assert.ok(data.checkinTime.startsWith(booked.checkIn));
    const { text, event } = calendarOf(mail);
    assert.match(text, /METHOD:PUBLISH/);
    assert.match(text, new RegExp(`DTSTART;VALUE=DATE:${booked.checkIn.replaceAll('-', '')}`));
    assert.match(text, new RegExp(`DTEND;VALUE=DATE:${booked.checkOut.replaceAll('-', '')}`));
    assert.equal(event.uid, `${booked.code}@innkeep.test`);
    assert.equal(Number(event.sequence), 1);
    assert.equal(event.datetype, 'date');
    // No secret in the mail: not the access token.
    assert.ok(!JSON.stringify(mail).includes(booked.token));

    await sentMessage(booked.code, 0);
    const list = await messagesOf(booked.code);
    assert.deepEqual(
      list.map((m) => [m.kind, m.status]),
      [
        ['booking_confirmation', 'sent'],
        ['checkin_invitation', 'queued'],
      ],
    );
    assert.equal(list[0]?.to, email);
    assert.equal(list[0]?.language, 'en');
    assert.equal(list[0]?.attempts, 1);
    // The e-mail address is never logged in full.
    assert.ok(!t.logs.some((line) => line.includes(email)));
  });

  it('writes in the guest’s language: guest.language, else Accept-Language', async () => {
    const hotel = app.hotels[0];
    const es = `es.${Date.now()}@example.com`;
    const quote = await post(t, 'quote', {
      hotelId: hotel.id,
      checkIn: new Date(Date.now() + 20 * 86400_000).toISOString().slice(0, 10),
      checkOut: new Date(Date.now() + 22 * 86400_000).toISOString().slice(0, 10),
      adults: 1,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assert.equal(quote.statusCode, 201, quote.body);
    const res = await post(
      t,
      'reservations',
      { quoteId: quote.json().id, guest: { firstName: 'Eva', lastName: 'Ruiz', email: es } },
      { 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' },
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().guest.language, 'es');
    const mail = await mailOf(es, /confirmada/);
    assert.ok(mail.text?.includes('Cancelación gratuita hasta'));

    const pt = `pt.${Date.now()}@example.com`;
    const booked = await bookStay(t, hotel, {
      guest: { firstName: 'João', lastName: 'Sá', email: pt, language: 'pt' },
    });
    assert.equal(booked.reservation.guest.language, 'pt');
    await mailOf(pt, /confirmada/);
    const ptMail = mailsTo(pt)[0] as ParsedMail;
    assert.ok(ptMail.text?.includes('Caro/a João'));
  });

  it('tells what changed with the updated calendar, then cancels the event with the fee and refund', async () => {
    const hotel = app.hotels[0];
    const email = `mod.${Date.now()}@example.com`;
    const booked = await bookStay(t, hotel, {
      guest: { firstName: 'Rui', lastName: 'Costa', email },
      fromToday: 12,
    });
    await mailOf(email, /confirmed/);
    const patch = await t.inject({
      method: 'PATCH',
      url: `/api/v1/booking/reservations/${booked.code}`,
      headers: { authorization: `Bearer ${booked.token}` },
      payload: { adults: 2, specialRequests: 'quiet room' },
    });
    assert.equal(patch.statusCode, 200, patch.body);
    const modified = await mailOf(email, /changed/);
    assert.ok(modified.text?.includes('What changed'));
    assert.ok(modified.text?.includes('Guests: 1 adult → 2 adults'));
    assert.ok(modified.text?.includes('Special requests: — → quiet room'));
    assert.equal(Number(calendarOf(modified).event.sequence), 2);

    // The hotel's own notes are no news to the guest.
    const notes = await t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/reservations/${booked.code}`,
      headers: auth(app.root),
      payload: { internalNotes: 'VIP' },
    });
    assert.equal(notes.statusCode, 200, notes.body);

    const cancel = await post(
      t,
      `reservations/${booked.code}/cancel`,
      {},
      { authorization: `Bearer ${booked.token}` },
    );
    assert.equal(cancel.statusCode, 200, cancel.body);
    const cancelled = await mailOf(email, /cancelled/);
    assert.ok(cancelled.text?.includes('Cancellation fee'));
    assert.ok(cancelled.text?.includes('Refund'));
    const { text, event } = calendarOf(cancelled);
    assert.match(text, /METHOD:CANCEL/);
    assert.equal(Number(event.sequence), 4);
    assert.match(String(cancelled.html), /ReservationCancelled/);
    const kinds = (await messagesOf(booked.code)).map((m) => m.kind);
    // The scheduled invitation went with the stay.
    assert.deepEqual(kinds, ['booking_confirmation', 'booking_modified', 'booking_cancelled']);
  });

  it('invites at once to check in when booked inside the invitation window; check-in completed follows', async () => {
    const hotel = app.hotels[1];
    const email = `inv.${Date.now()}@example.com`;
    const booked = await bookStay(t, hotel, {
      guest: { firstName: 'Ines', lastName: 'Mota', email },
      fromToday: 1,
    });
    const invitation = await mailOf(email, /Check in online/);
    const link = new RegExp(`${BASE}/checkin/(cks_[0-9a-z]+)`).exec(invitation.text ?? '');
    assert.ok(link, invitation.text);
    assert.ok(String(invitation.html).includes(link[0]));
    assert.equal(invitation.attachments.length, 0);
    const session = await t.inject({ method: 'GET', url: `/api/v1/checkin/sessions/${link[1]}` });
    assert.equal(session.statusCode, 200, session.body);
    assert.equal(session.json().session.reservation.id, booked.code);

    await completeCheckin(t, link[1] as string, booked);
    const done = await mailOf(email, /checked in/);
    assert.ok(done.text?.includes(`${GUEST_DETAILS.firstName} ${GUEST_DETAILS.lastName}`));
    assert.ok(!JSON.stringify(done).includes(link[1] as string), 'no session id outside the invitation');
    await sentMessage(booked.code, 2);
    const list = await messagesOf(booked.code);
    assert.deepEqual(
      list.map((m) => [m.kind, m.status]),
      [
        ['booking_confirmation', 'sent'],
        ['checkin_invitation', 'sent'],
        ['checkin_completed', 'sent'],
      ],
    );
  });

  it('sends again on the hotel’s request (202, queued), refusing a cancelled reservation', async () => {
    const hotel = app.hotels[0];
    const email = `again.${Date.now()}@example.com`;
    const booked = await bookStay(t, hotel, { guest: { firstName: 'Ana', lastName: 'Lopes', email } });
    await mailOf(email, /confirmed/);
    const res = await t.inject({
      method: 'POST',
      url: `${OPERATOR}/reservations/${booked.code}/messages`,
      headers: auth(app.root),
      payload: { kind: 'checkin_invitation' },
    });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.json().status, 'queued');
    assert.equal(res.json().kind, 'checkin_invitation');
    await mailOf(email, /Check in online/);
    const bad = await t.inject({
      method: 'POST',
      url: `${OPERATOR}/reservations/${booked.code}/messages`,
      headers: auth(app.root),
      payload: { kind: 'booking_cancelled' },
    });
    assert.equal(bad.statusCode, 400, bad.body);
    await post(t, `reservations/${booked.code}/cancel`, {}, { authorization: `Bearer ${booked.token}` });
    const refused = await t.inject({
      method: 'POST',
      url: `${OPERATOR}/reservations/${booked.code}/messages`,
      headers: auth(app.root),
      payload: { kind: 'booking_confirmation' },
    });
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'reservation_cancelled');
    const unknown = await t.inject({
      method: 'GET',
      url: `${OPERATOR}/reservations/R7K3M9Q2X/messages`,
      headers: auth(app.root),
    });
    assert.equal(unknown.statusCode, 404);
  });

  it('retries after 451 and sends; fails after 550 with the event message.failed', async () => {
    const hotel = app.hotels[0];
    const later = `later.${Date.now()}@example.com`;
    const gone = `gone.${Date.now()}@example.com`;
    let refusedOnce = false;
    smtp.refuse = (to) => {
      if (to === later && !refusedOnce) {
        refusedOnce = true;
        return 451;
      }
      return to === gone ? 550 : null;
    };
    const retried = await bookStay(t, hotel, {
      guest: { firstName: 'Ana', lastName: 'Later', email: later },
    });
    await mailOf(later, /confirmed/);
    // The outcome is recorded just after the server's answer.
    const first = await sentMessage(retried.code, 0);
    assert.equal(first?.attempts, 2);
    assert.equal(smtp.attempts.filter((a) => a.to === later && a.code === 451).length, 1);

    const failed = await bookStay(t, hotel, { guest: { firstName: 'Ana', lastName: 'Gone', email: gone } });
    const message = await eventually('the message failed', async () => {
      const m = (await messagesOf(failed.code))[0];
      return m?.status === 'failed' ? m : undefined;
    });
    assert.equal(message.attempts, 1);
    assert.match(String(message.lastError), /550/);
    const events = await t.inject({
      method: 'GET',
      url: `${OPERATOR}/events?types=message.failed`,
      headers: auth(app.root),
    });
    assert.equal(events.statusCode, 200, events.body);
    const event = (
      events.json().data as Array<{ data: { message: { id: string }; reservationId: string } }>
    ).find((e) => e.data.reservationId === failed.code);
    assert.equal(event?.data.message.id, message.id);
    smtp.refuse = null;
  });
});
