import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../config.ts';

const refused = (env: Record<string, string>, variable: string) =>
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => error instanceof ConfigError && error.problems.some((p) => p.startsWith(variable)),
  );

test('the mail settings have their defaults (API.md 10)', () => {
  const config = loadConfig({ PUBLIC_BASE_URL: 'https://book.example.com' });
  assert.equal(config.smtpUrl, null);
  assert.equal(config.mailFrom, 'Innkeep <no-reply@book.example.com>');
  assert.equal(config.mailRetryBaseSeconds, 60);
  assert.equal(config.checkinInviteDays, 3);
  assert.equal(config.checkinInviteTime, '10:00');
});

test('a bad mail setting stops the start, naming the variable', () => {
  refused({ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL');
  refused({ SMTP_URL: 'not a url' }, 'SMTP_URL');
  refused({ MAIL_FROM: 'nobody' }, 'MAIL_FROM');
  refused({ MAIL_RETRY_BASE_SECONDS: '0' }, 'MAIL_RETRY_BASE_SECONDS');
  refused({ CHECKIN_INVITE_DAYS: '-1' }, 'CHECKIN_INVITE_DAYS');
  refused({ CHECKIN_INVITE_DAYS: 'three' }, 'CHECKIN_INVITE_DAYS');
  refused({ CHECKIN_INVITE_TIME: '25:00' }, 'CHECKIN_INVITE_TIME');
  refused({ CHECKIN_INVITE_TIME: '9:00' }, 'CHECKIN_INVITE_TIME');
  assert.equal(
    loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).smtpUrl,
    'smtps://u:p@mail.example.com:465',
  );
  assert.equal(
    loadConfig({ MAIL_FROM: 'Harbour View <stay@harbour.example>' }).mailFrom,
    'Harbour View <stay@harbour.example>',
  );
});
