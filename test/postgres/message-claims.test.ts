/**
 * Guest messages from two service processes on one PostgreSQL database (API.md 10): every message
 * is sent by exactly one of them, counted at the SMTP server; the check-in invitation too (one
 * session, one mail); and without SMTP_URL a PostgreSQL deployment warns and keeps them queued.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { bookOverHttp, type ServiceProcess } from '../helpers/service-process.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../messages/smtp-receiver.ts';
import { DATABASE_URL, eventually, needsPostgres, sqlClient, startService, writeCatalog } from './support.ts';

/** A stay of 1 night booked over HTTP (service-process.ts). */
function book(service: ServiceProcess, hotelId: string, email: string, fromToday: number) {
  return bookOverHttp(service, { hotelId, email, fromToday, nights: 1 });
}

describe('guest messages from two processes (PostgreSQL)', { skip: needsPostgres }, () => {
  const services: ServiceProcess[] = [];
  let smtp: SmtpReceiver | undefined;
  after(async () => {
    for (const s of services) await s.stop();
    await smtp?.close();
  });

  it('sends each message exactly once, whichever process claims it', async () => {
    smtp = await startSmtpReceiver();
    const hotel = makeHotel({
      timezone: 'UTC',
      roomTypes: [
        { id: 'double', name: 'Double Room', count: 200, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
        { id: 'suite', name: 'Suite', count: 2, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
      ],
    });
    const env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CATALOG_FILE: await writeCatalog([hotel]),
      DB_POOL_SIZE: '4',
      OPERATOR_BOOTSTRAP: 'false',
      SMTP_URL: smtp.url,
      WEBHOOK_POLL_INTERVAL_MS: '50',
    };
    services.push(await startService(env), await startService(env));
    const codes: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 6; i++) {
          const service = services[(w + i) % 2] as ServiceProcess;
          // One in three arrives tomorrow: its invitation is due at once.
          const booked = await book(service, hotel.id, `pg${w}-${i}@example.com`, i % 3 === 0 ? 1 : 10);
          codes.push(booked.id);
        }
      }),
    );
    const expected = codes.length + codes.length / 3;
    await eventually(
      'every message',
      async () => (smtp && smtp.mails.length >= expected ? true : undefined),
      400,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const ids = smtp.mails.map((m) => m.messageId);
    assert.equal(ids.length, expected, 'no message sent twice');
    assert.equal(new Set(ids).size, expected);
    for (const code of codes) {
      assert.equal(
        smtp.mails.filter((m) => (m.subject ?? '').includes(code) && /confirmed/.test(m.subject ?? ''))
          .length,
        1,
      );
    }
    const client = await sqlClient();
    try {
      const { rows } = await client.query(
        `SELECT m.status, count(*)::int AS n FROM guest_messages m JOIN reservations r ON r.hotel_id = m.hotel_id AND r.id = m.reservation_id
          WHERE r.hotel_id = $1 GROUP BY m.status ORDER BY m.status`,
        [hotel.id],
      );
      assert.deepEqual(rows, [
        { status: 'queued', n: codes.length - codes.length / 3 },
        { status: 'sent', n: expected },
      ]);
    } finally {
      await client.end();
    }
    // Both still poll this database: stopped, so the next test's messages are its own to keep.
    for (const s of services.splice(0)) await s.stop();
  });

  it('without SMTP_URL: a warning at start, and messages stay queued', async () => {
    const hotel = makeHotel({ timezone: 'UTC' });
    const service = await startService({
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CATALOG_FILE: await writeCatalog([hotel]),
      OPERATOR_BOOTSTRAP: 'false',
    });
    services.push(service);
    assert.ok(service.lines.some((l) => l.includes('SMTP_URL is not set') && l.includes('"level":40')));
    const booked = await book(service, hotel.id, 'queued@example.com', 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const client = await sqlClient();
    try {
      const { rows } = await client.query(
        `SELECT m.kind, m.status FROM guest_messages m JOIN reservations r ON r.hotel_id = m.hotel_id AND r.id = m.reservation_id
          WHERE r.code = $1 ORDER BY m.id`,
        [booked.id],
      );
      assert.deepEqual(rows, [
        { kind: 'booking_confirmation', status: 'queued' },
        { kind: 'checkin_invitation', status: 'queued' },
      ]);
    } finally {
      await client.end();
    }
  });
});
