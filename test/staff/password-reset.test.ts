import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { createEncryptor } from '../../src/infra/crypto/encryption.ts';
import { STAFF_LINK_CONTEXT } from '../../src/messages/staff-outbox.ts';
import { AUTH, activeStaff, fromDesk, STRONG, sessionOf, startStaffApp } from './helpers.ts';

const NEW = 'violet lantern marmalade quorum';

test('a reset link from the e-mail works once, within the hour, and ends every session', async (t) => {
  const s = await startStaffApp(t);
  const email = `reset-${randomUUID().slice(0, 8)}@example.com`;
  const person = await activeStaff(s, { email, role: 'front_desk' });
  const ask = () => s.t.inject({ method: 'POST', url: `${AUTH}/password-reset`, payload: { email } });
  assert.equal((await ask()).statusCode, 202);

  const linkOf = async () => {
    const { rows } = await s.t.db.query<{ data: { link: string } }>(
      "SELECT data FROM guest_messages WHERE kind = 'staff_password_reset' AND recipient = $1 ORDER BY id DESC LIMIT 1",
      [email],
    );
    const encryptor = createEncryptor(s.t.config.dataEncryptionKey as Buffer);
    const link = encryptor
      .decrypt(Buffer.from(rows[0]?.data.link ?? '', 'base64'), STAFF_LINK_CONTEXT)
      .toString('utf8');
    assert.match(link, /\/desk\/reset#stk_[0-9a-z]{40,}$/);
    return link.split('#')[1] as string;
  };
  const token = await linkOf();
  const reset = (tok: string, password: string) =>
    s.t.inject({ method: 'POST', url: `${AUTH}/password-reset/${tok}`, payload: { password } });

  const weak = await reset(token, 'password1234');
  assert.equal(weak.statusCode, 400);
  assert.equal(weak.json().errors[0].path, '/password');
  assert.equal((await reset(token, NEW)).statusCode, 204, 'a refused password left the link good');
  assert.equal((await reset(token, STRONG)).statusCode, 404, 'single use');
  assert.equal(
    (await s.t.inject({ method: 'GET', url: `${AUTH}/me`, headers: { cookie: person.cookie } })).statusCode,
    401,
    'every session ended',
  );
  const signIn = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/sign-in`,
    payload: { email, password: NEW },
  });
  assert.equal(signIn.statusCode, 200);
  const cookie = sessionOf(signIn.headers['set-cookie']);

  // A link older than an hour is refused and changes nothing.
  assert.equal((await ask()).statusCode, 202);
  const late = await linkOf();
  s.t.clock.advance(61 * 60 * 1000);
  assert.equal((await reset(late, STRONG)).statusCode, 404);
  const still = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/sign-in`,
    payload: { email, password: NEW },
  });
  assert.equal(still.statusCode, 200, 'the password did not change');

  // Sign-out from another origin's page is refused.
  const forged = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/sign-out`,
    headers: { cookie, origin: 'https://evil.example' },
  });
  assert.equal(forged.statusCode, 403);
  assert.equal(
    (await s.t.inject({ method: 'POST', url: `${AUTH}/sign-out`, headers: fromDesk(s, cookie) })).statusCode,
    204,
  );
});
