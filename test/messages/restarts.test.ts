/**
 * Guest messages across process ends (API.md 10), with the real service as a child process on the
 * embedded engine: a kill -9 while messages are being sent loses none (they go out after the
 * restart); the scheduled invitation survives a restart, catches up on the time the service was
 * down, and goes once; without SMTP_URL the messages land as .eml files in DATA_DIR/mail/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { openEmbeddedDatabase } from '../../src/infra/db/pglite.ts';
import { bookOverHttp, http, type ServiceProcess, startService } from '../helpers/service-process.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { seededDataDir } from '../helpers/test-database.ts';
import { eventually } from '../postgres/support.ts';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.ts';

async function setup() {
  const dir = await seededDataDir('innkeep-mail-', 'data');
  const hotel = makeHotel({ timezone: 'UTC' });
  const catalogFile = join(dir, 'catalog.json');
  await writeFile(catalogFile, JSON.stringify({ hotels: [hotel] }));
  const env = {
    DATA_DIR: join(dir, 'data'),
    CATALOG_FILE: catalogFile,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATABASE_URL: '',
    OPERATOR_BOOTSTRAP: 'false',
    WEBHOOK_POLL_INTERVAL_MS: '100',
    MAIL_RETRY_BASE_SECONDS: '0.01',
    MAIL_TIMEOUT_MS: '1000',
  };
  return { dir, hotel, env };
}

/** A stay of 2 nights booked over HTTP (service-process.ts). */
function book(service: ServiceProcess, hotelId: string, email: string, fromToday: number) {
  return bookOverHttp(service, { hotelId, email, fromToday, nights: 2 });
}

describe('guest messages across restarts (embedded engine)', () => {
  const dirs: string[] = [];
  const receivers: SmtpReceiver[] = [];
  after(async () => {
    for (const r of receivers) await r.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('kill -9 while messages are in flight loses none: they are sent after the restart', async () => {
    const { dir, hotel, env } = await setup();
    dirs.push(dir);
    // First a server that takes every message and never answers it: the attempts hang in flight.
    const stuck = await startSmtpReceiver();
    stuck.hang = true;
    receivers.push(stuck);
    const first = await startService({ ...env, SMTP_URL: stuck.url });
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) codes.push((await book(first, hotel.id, `crash${i}@example.com`, 10)).id);
    await eventually('attempts in flight', async () => (stuck.attempts.length >= 1 ? true : undefined));
    first.child.kill('SIGKILL');
    await first.exited;

    const good = await startSmtpReceiver();
    receivers.push(good);
    const second = await startService({ ...env, SMTP_URL: good.url });
    try {
      // The killed process's claims run out after their lease (2 × MAIL_TIMEOUT_MS + 5 s).
      await eventually(
        'every confirmation sent',
        async () => {
          const subjects = good.mails.map((m) => m.subject ?? '');
          return codes.every((c) => subjects.some((s) => s.includes(c) && /confirmed/.test(s)))
            ? true
            : undefined;
        },
        600,
      );
    } finally {
      await second.stop();
    }
  });

  it('the invitation survives a restart, catches up on the downtime and goes once', async () => {
    const { dir, hotel, env } = await setup();
    dirs.push(dir);
    const smtp = await startSmtpReceiver();
    receivers.push(smtp);
    // A send that outlives MAIL_TIMEOUT_MS is retried (at least once, by design): setup()'s 1 s
    // is too short on a loaded machine for "goes once" to be about restarts only.
    const serviceEnv = { ...env, SMTP_URL: smtp.url, CHECKIN_INVITE_DAYS: '3', MAIL_TIMEOUT_MS: '15000' };
    const first = await startService(serviceEnv);
    const booked = await book(first, hotel.id, 'later@example.com', 10);
    const cancelled = await book(first, hotel.id, 'cancelled@example.com', 10);
    const cancel = await http(
      first.baseUrl,
      'POST',
      `/api/v1/booking/reservations/${cancelled.id}/cancel`,
      {},
      {
        authorization: `Bearer ${cancelled.accessToken}`,
      },
    );
    assert.equal(cancel.status, 200);
    await eventually('the confirmations', async () => (smtp.mails.length >= 3 ? true : undefined));
    await first.stop();
    assert.ok(!smtp.mails.some((m) => /Check in online/.test(m.subject ?? '')), 'not due yet');

    // The service is down over the invitation's time: a week passes, as far as its row can tell.
    const db = await openEmbeddedDatabase(join(env.DATA_DIR, 'pgdata'));
    try {
      const { rows } = await db.query<{ n: number }>(
        `UPDATE guest_messages SET send_after = now() - interval '7 days'
          WHERE kind = 'checkin_invitation' RETURNING 1 AS n`,
      );
      assert.equal(rows.length, 1, 'one scheduled invitation: none for the cancelled stay');
    } finally {
      await db.close();
    }

    const second = await startService(serviceEnv);
    const invitation = await eventually('the invitation after the restart', async () =>
      smtp.mails.find((m) => /Check in online/.test(m.subject ?? '')),
    );
    assert.match(invitation.subject ?? '', new RegExp(booked.id));
    assert.match(invitation.text ?? '', /https:\/\/innkeep\.test\/checkin\/cks_[0-9a-z]+/);
    await second.stop();
    const third = await startService(serviceEnv);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await third.stop();
    assert.equal(smtp.mails.filter((m) => /Check in online/.test(m.subject ?? '')).length, 1, 'once');
  });

  it('without SMTP_URL writes each message as an .eml file in DATA_DIR/mail/', async () => {
    const { dir, hotel, env } = await setup();
    dirs.push(dir);
    const service = await startService(env);
    try {
      const booked = await book(service, hotel.id, 'eml@example.com', 1);
      const mailDir = join(env.DATA_DIR, 'mail');
      const files = await eventually('two .eml files', async () => {
        const names = await readdir(mailDir).catch(() => [] as string[]);
        const eml = names.filter((n) => n.endsWith('.eml'));
        return eml.length >= 2 ? eml.sort() : undefined;
      });
      assert.ok(files.some((f) => f.includes('booking_confirmation')));
      assert.ok(files.some((f) => f.includes('checkin_invitation')));
      const confirmation = await simpleParser(
        await readFile(join(mailDir, files.find((f) => f.includes('booking_confirmation')) as string)),
      );
      assert.match(confirmation.subject ?? '', new RegExp(booked.id));
      assert.equal(confirmation.attachments[0]?.filename, 'reservation.ics');
      assert.ok(service.lines.some((l) => l.includes('.eml files')));
      assert.ok(!service.lines.some((l) => l.includes('eml@example.com')), 'the address is not logged');
    } finally {
      await service.stop();
    }
  });
});
