/**
 * The SMTP password and the guests' messages never cross the network in clear (issue 32, item 10):
 * over `smtp://` to a server that is not on this host, STARTTLS is required, so a server that does
 * not offer it gets no AUTH and no message (the message stays queued, its error saying why), unless
 * SMTP_ALLOW_PLAINTEXT says the relay is trusted. A relay on this host (loopback) is exempt: every
 * other message test sends through one without STARTTLS. The rule itself, host by host, is
 * unit-tested in src/messages/transport.test.ts.
 */
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { bookStay } from '../checkin/helpers.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { eventually } from '../postgres/support.ts';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.ts';

/** An address of this machine that is not loopback: the server looks remote to the service. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
const skip = outside ? false : 'this machine has no non-loopback IPv4 address';

async function messagesOf(app: OperatorApp, code: string) {
  const res = await app.t.inject({
    method: 'GET',
    url: `${OPERATOR}/reservations/${code}/messages`,
    headers: auth(app.root),
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as Array<Record<string, unknown>>;
}

async function serviceSending(smtp: SmtpReceiver, env: Record<string, string> = {}) {
  const url = smtp.url.replace('smtp://', 'smtp://innkeep:s3cret-pass@');
  return startOperatorApp({
    SMTP_URL: url,
    MAIL_WORKER: 'true',
    MAIL_RETRY_BASE_SECONDS: '0.05',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    ...env,
  });
}

describe('SMTP without STARTTLS on a server that is not on this host', { skip }, () => {
  let smtp: SmtpReceiver;
  let refused: OperatorApp;
  before(async () => {
    smtp = await startSmtpReceiver({ host: outside as string });
  });
  after(async () => {
    await refused?.t.close();
    await smtp.close();
  });

  it('is refused before the password or the message is sent; the message stays queued saying why', async () => {
    refused = await serviceSending(smtp);
    const booked = await bookStay(refused.t, refused.hotels[0], {
      guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana.tls@example.com' },
      fromToday: 10,
    });
    const first = await eventually('an attempt recorded', async () => {
      const m = (await messagesOf(refused, booked.code))[0];
      return m && Number(m.attempts) >= 1 && m.lastError ? m : undefined;
    });
    assert.equal(first.status, 'queued');
    assert.match(String(first.lastError), /STARTTLS|TLS/i);
    assert.doesNotMatch(String(first.lastError), /s3cret-pass/);
    assert.deepEqual(smtp.logins, [], 'no AUTH reached the server');
    assert.deepEqual(smtp.mails, [], 'no message reached the server');
    assert.deepEqual(smtp.attempts, [], 'not even a recipient');
    assert.ok(!refused.t.logs.some((line) => line.includes('s3cret-pass')), 'the password is never logged');
  });
});

describe('SMTP_ALLOW_PLAINTEXT=true: a trusted relay without STARTTLS', { skip }, () => {
  let smtp: SmtpReceiver;
  let app: OperatorApp;
  before(async () => {
    smtp = await startSmtpReceiver({ host: outside as string });
    app = await serviceSending(smtp, { SMTP_ALLOW_PLAINTEXT: 'true' });
  });
  after(async () => {
    await app.t.close();
    await smtp.close();
  });

  it('sends, as the operator asked', async () => {
    const booked = await bookStay(app.t, app.hotels[0], {
      guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana.plain@example.com' },
      fromToday: 10,
    });
    await eventually('the confirmation sent', async () => {
      const m = (await messagesOf(app, booked.code))[0];
      return m?.status === 'sent' ? m : undefined;
    });
    assert.ok(
      smtp.mails.some((m) => JSON.stringify(m.to).includes('ana.plain@example.com')),
      JSON.stringify(smtp.mails.map((m) => [m.to, m.subject])),
    );
    assert.ok(smtp.logins.length > 0);
    assert.ok(smtp.logins.every((l) => l.username === 'innkeep' && l.password));
  });
});
