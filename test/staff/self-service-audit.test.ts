/**
 * What a person does to their own account writes the audit trail (API.md 12), in the change's
 * transaction, with the person as actor: accepting an invitation, signing in (password or passkey)
 * and out, changing the password, asking for and using a reset link. A refused attempt writes none.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { createEncryptor } from '../../src/infra/crypto/encryption.ts';
import { STAFF_LINK_CONTEXT } from '../../src/messages/staff-outbox.ts';
import {
  AUTH,
  activeStaff,
  auditEntries,
  fromDesk,
  inviteAsCli,
  STRONG,
  type StaffApp,
  sessionOf,
  startStaffApp,
} from './helpers.ts';
import { SoftwareAuthenticator } from './software-authenticator.ts';

const NEW = 'violet lantern marmalade quorum';
const unique = () => randomUUID().slice(0, 8);

/** The person's entries, oldest first, as `action` or `action:details.method`. */
async function trailOf(s: StaffApp, id: string): Promise<string[]> {
  const entries = await auditEntries(s.t, `actorId=${id}`);
  for (const e of entries) {
    assert.deepEqual(e.actor, { type: 'staff', id, name: 'Test Person' });
    assert.deepEqual(e.target, { type: 'staff', id });
    assert.equal(e.changes, undefined);
  }
  return entries
    .map((e) => {
      const method = (e.details as { method?: string } | undefined)?.method;
      return method ? `${e.action}:${method}` : String(e.action);
    })
    .reverse();
}

const post = (s: StaffApp, url: string, payload?: object, headers: Record<string, string> = {}) =>
  s.t.inject({
    method: 'POST',
    url: `${AUTH}${url}`,
    headers: { origin: s.origin, ...headers },
    ...(payload ? { payload } : {}),
  });

test('signing in and out and changing one’s password are in the trail; refused attempts are not', async (t) => {
  const s = await startStaffApp(t);
  const email = `self-${unique()}@example.com`;
  const hotelIds = [s.hotels[0].id];
  const person = await activeStaff(s, { email, role: 'front_desk', hotelIds });
  assert.deepEqual(await trailOf(s, person.id), ['staff.invitation_accepted']);

  const wrong = await post(s, '/sign-in', { email, password: 'not the password at all' });
  assert.equal(wrong.statusCode, 401);
  const signedIn = await post(s, '/sign-in', { email, password: STRONG }, { 'x-request-id': 'sign-in-1' });
  assert.equal(signedIn.statusCode, 200, signedIn.body);
  const cookie = sessionOf(signedIn.headers['set-cookie']);
  const [entry] = await auditEntries(s.t, `actorId=${person.id}&action=staff.signed_in`);
  assert.equal(entry?.hotelId, hotelIds[0], 'the person’s hotel');
  assert.equal(entry?.requestId, 'sign-in-1');
  assert.deepEqual(entry?.details, { method: 'password' });

  const badCurrent = await post(
    s,
    '/password',
    { currentPassword: 'not the password at all', newPassword: NEW },
    { cookie },
  );
  assert.equal(badCurrent.statusCode, 400);
  const weak = await post(
    s,
    '/password',
    { currentPassword: STRONG, newPassword: 'password1234' },
    { cookie },
  );
  assert.equal(weak.statusCode, 400);
  const changed = await post(
    s,
    '/password',
    { currentPassword: STRONG, newPassword: NEW },
    fromDesk(s, cookie),
  );
  assert.equal(changed.statusCode, 204, changed.body);
  assert.equal((await post(s, '/sign-out', undefined, fromDesk(s, cookie))).statusCode, 204);
  const again = await post(s, '/sign-out', undefined, fromDesk(s, cookie));
  assert.equal(again.statusCode, 401, 'an ended session signs out nothing');

  assert.deepEqual(await trailOf(s, person.id), [
    'staff.invitation_accepted',
    'staff.signed_in:password',
    'staff.password_changed',
    'staff.signed_out',
  ]);
});

test('a reset request is in the trail only for an active account, without telling the caller; the reset is too', async (t) => {
  const s = await startStaffApp(t);
  const email = `reset-${unique()}@example.com`;
  const person = await activeStaff(s, { email, role: 'accountant' });
  const invitedEmail = `invited-${unique()}@example.com`;
  const invited = await inviteAsCli(s, { email: invitedEmail, role: 'accountant' });
  const before = (await auditEntries(s.t, 'action=staff.password_reset_requested')).length;

  const asks = await Promise.all(
    [email.toUpperCase(), `nobody-${unique()}@example.com`, invitedEmail].map((e) =>
      post(s, '/password-reset', { email: e }),
    ),
  );
  for (const ask of asks) {
    assert.equal(ask.statusCode, 202);
    assert.equal(ask.body, '', 'the same empty answer whether the e-mail has an account or not');
  }
  const requested = await auditEntries(s.t, 'action=staff.password_reset_requested');
  assert.equal(requested.length, before + 1, 'one entry: the active account’s');
  assert.deepEqual(requested[0]?.target, { type: 'staff', id: person.id });
  assert.deepEqual(await trailOf(s, invited.id), [], 'an invited account asks for nothing');

  const { rows } = await s.t.db.query<{ data: { link: string } }>(
    "SELECT data FROM guest_messages WHERE kind = 'staff_password_reset' AND recipient = $1 ORDER BY id DESC LIMIT 1",
    [email],
  );
  const token = createEncryptor(s.t.config.dataEncryptionKey as Buffer)
    .decrypt(Buffer.from(rows[0]?.data.link ?? '', 'base64'), STAFF_LINK_CONTEXT)
    .toString('utf8')
    .split('#')[1] as string;
  assert.equal((await post(s, `/password-reset/${token}`, { password: 'password1234' })).statusCode, 400);
  assert.equal((await post(s, `/password-reset/${token}`, { password: NEW })).statusCode, 204);
  assert.equal((await post(s, `/password-reset/${token}`, { password: STRONG })).statusCode, 404);

  assert.deepEqual(await trailOf(s, person.id), [
    'staff.invitation_accepted',
    'staff.password_reset_requested',
    'staff.password_reset',
  ]);
});

test('a passkey sign-in is in the trail with its passkey; a replayed answer writes nothing', async (t) => {
  const s = await startStaffApp(t);
  const person = await activeStaff(s, { email: `pk-${unique()}@example.com`, role: 'front_desk' });
  const url = new URL(s.t.config.publicBaseUrl);
  const authenticator = new SoftwareAuthenticator(url.hostname, url.origin);
  const options = await post(s, '/passkeys/options', undefined, fromDesk(s, person.cookie));
  const added = await post(
    s,
    '/passkeys',
    { response: authenticator.register(options.json()) },
    fromDesk(s, person.cookie),
  );
  assert.equal(added.statusCode, 201, added.body);

  const answer = authenticator.authenticate((await post(s, '/passkey/options')).json());
  assert.equal((await post(s, '/passkey/sign-in', { response: answer })).statusCode, 200);
  assert.equal((await post(s, '/passkey/sign-in', { response: answer })).statusCode, 401);

  assert.deepEqual(await trailOf(s, person.id), [
    'staff.invitation_accepted',
    'staff.passkey_added',
    'staff.signed_in:passkey',
  ]);
  const [signedIn] = await auditEntries(s.t, `actorId=${person.id}&action=staff.signed_in`);
  assert.deepEqual(signedIn?.details, { method: 'passkey', passkeyId: added.json().id });
});
