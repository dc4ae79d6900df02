import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import {
  AUTH,
  activeStaff,
  fromDesk,
  inviteAsCli,
  OPERATOR,
  STRONG,
  sessionOf,
  startStaffApp,
} from './helpers.ts';

const unique = () => randomUUID().slice(0, 8);

test('an invitation is accepted once, signs in, and its e-mail is queued without the token in clear', async (t) => {
  const s = await startStaffApp(t);
  const u = unique();
  const { id, token } = await inviteAsCli(s, { email: `Owner-${u}@Example.com`, role: 'owner' });
  const { rows } = await s.t.db.query<{
    kind: string;
    recipient: string;
    data: unknown;
    reservation_id: unknown;
  }>(
    "SELECT kind, recipient, data, reservation_id FROM guest_messages WHERE kind = 'staff_invitation' AND recipient = $1",
    [`Owner-${u}@Example.com`],
  );
  assert.equal(rows.length, 1);
  assert.equal(rows[0]?.recipient, `Owner-${u}@Example.com`);
  assert.equal(rows[0]?.reservation_id, null);
  assert.ok(!JSON.stringify(rows[0]?.data).includes(token), 'the token is stored encrypted');

  const weak = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/invitations/${token}/accept`,
    payload: { password: 'password1234' },
  });
  assert.equal(weak.statusCode, 400);
  assert.equal(weak.json().errors[0].path, '/password');
  assert.ok(!weak.body.includes('password1234'), 'the password is never repeated');

  const accepted = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/invitations/${token}/accept`,
    payload: { password: STRONG },
  });
  assert.equal(accepted.statusCode, 201, accepted.body);
  assert.equal(accepted.json().user.id, id);
  assert.equal(accepted.json().user.status, 'active');
  const setCookie = String(accepted.headers['set-cookie']);
  assert.match(setCookie, /^innkeep_session=[0-9a-z]{40,}; /);
  assert.match(setCookie, /HttpOnly/);
  assert.match(setCookie, /SameSite=Strict/);
  assert.match(setCookie, /Path=\//);

  const again = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/invitations/${token}/accept`,
    payload: { password: STRONG },
  });
  assert.equal(again.statusCode, 404, 'an invitation is single use');

  const me = await s.t.inject({
    method: 'GET',
    url: `${AUTH}/me`,
    headers: { cookie: sessionOf(setCookie) },
  });
  assert.equal(me.statusCode, 200);
  assert.equal(me.json().user.email, `Owner-${u}@Example.com`);
  assert.ok(me.json().scopes.includes('keys:write'));
});

test('an expired invitation changes nothing', async (t) => {
  const s = await startStaffApp(t);
  const u = unique();
  const { token } = await inviteAsCli(s, { email: `late-${u}@example.com`, role: 'front_desk' });
  s.t.clock.advance(73 * 3600 * 1000);
  const late = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/invitations/${token}/accept`,
    payload: { password: STRONG },
  });
  assert.equal(late.statusCode, 404);
  const { rows } = await s.t.db.query<{ status: string }>(
    'SELECT status FROM staff_accounts WHERE email = $1',
    [`late-${u}@example.com`],
  );
  assert.equal(rows[0]?.status, 'invited');
});

test('sign-in answers the same to unknown, invited and wrong, and locks an e-mail after 10 failures', async (t) => {
  const s = await startStaffApp(t);
  const u = unique();
  await activeStaff(s, { email: `ana-${u}@example.com`, role: 'front_desk' });
  await inviteAsCli(s, { email: `invited-${u}@example.com`, role: 'front_desk' });
  const attempt = (email: string, password: string) =>
    s.t.inject({ method: 'POST', url: `${AUTH}/sign-in`, payload: { email, password } });
  const bodies = [];
  for (const [email, password] of [
    [`nobody-${u}@example.com`, STRONG],
    [`invited-${u}@example.com`, STRONG],
    [`ana-${u}@example.com`, 'wrong password here'],
  ] as const) {
    const r = await attempt(email, password);
    assert.equal(r.statusCode, 401);
    assert.equal(r.json().code, 'sign_in_failed');
    const { requestId: _, ...rest } = r.json();
    bodies.push(JSON.stringify(rest));
  }
  assert.equal(new Set(bodies).size, 1, 'one answer for every failure');

  const ok = await attempt(`ANA-${u}@example.com`, STRONG);
  assert.equal(ok.statusCode, 200, 'e-mails match without regard to case');
  assert.deepEqual(ok.json().hotelIds, null);

  for (let i = 0; i < 9; i++)
    assert.equal((await attempt(`ana-${u}@example.com`, 'wrong password here')).statusCode, 401);
  const locked = await attempt(`ana-${u}@example.com`, STRONG);
  assert.equal(locked.statusCode, 429, 'locked whatever the password');
  assert.ok(Number(locked.headers['retry-after']) > 0);
  s.t.clock.advance(15 * 60 * 1000 + 1000);
  assert.equal((await attempt(`ana-${u}@example.com`, STRONG)).statusCode, 200, 'the window passes');
});

test('parallel wrong passwords for one e-mail: exactly 10 are checked, the rest locked', async (t) => {
  const s = await startStaffApp(t);
  const u = unique();
  await activeStaff(s, { email: `race-${u}@example.com`, role: 'front_desk' });
  const answers = await Promise.all(
    Array.from({ length: 30 }, () =>
      s.t.inject({
        method: 'POST',
        url: `${AUTH}/sign-in`,
        payload: { email: `race-${u}@example.com`, password: 'wrong password here' },
      }),
    ),
  );
  const codes = answers.map((a) => a.statusCode).sort();
  assert.equal(codes.filter((c) => c === 401).length, 10, 'ten failures are checked');
  assert.equal(codes.filter((c) => c === 429).length, 20, 'every other attempt is locked out');
  const right = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/sign-in`,
    payload: { email: `race-${u}@example.com`, password: STRONG },
  });
  assert.equal(right.statusCode, 429, 'locked whatever the password');
});

test('a session authenticates the operator API with its role’s scopes; sign-out and disabling end it at once', async (t) => {
  const s = await startStaffApp(t);
  const u = unique();
  const [h1, h2] = s.hotels;
  const owner = await activeStaff(s, { email: `owner-${u}@example.com`, role: 'owner' });
  const desk = await activeStaff(s, {
    email: `desk-${u}@example.com`,
    role: 'front_desk',
    hotelIds: [h1.id],
  });

  const hotels = await s.t.inject({
    method: 'GET',
    url: `${OPERATOR}/hotels`,
    headers: { cookie: desk.cookie },
  });
  assert.equal(hotels.statusCode, 200);
  assert.deepEqual(
    hotels.json().data.map((h: { id: string }) => h.id),
    [h1.id],
  );
  const staff = await s.t.inject({
    method: 'GET',
    url: `${OPERATOR}/staff`,
    headers: { cookie: desk.cookie },
  });
  assert.equal(staff.statusCode, 403, 'front_desk lacks staff:write');
  const other = await s.t.inject({
    method: 'GET',
    url: `${OPERATOR}/hotels/${h2.id}/reservations`,
    headers: { cookie: desk.cookie },
  });
  assert.equal(other.statusCode, 404, 'another hotel is as if it did not exist');

  // Changes with the cookie only from the service's own pages.
  const patch = (headers: Record<string, string>) =>
    s.t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/staff/${desk.id}`,
      headers,
      payload: { name: 'Desk Two' },
    });
  assert.equal((await patch({ cookie: owner.cookie, origin: 'https://evil.example' })).statusCode, 403);
  assert.equal((await patch({ cookie: owner.cookie })).statusCode, 403, 'no Origin, no Sec-Fetch-Site');
  assert.equal((await patch({ cookie: owner.cookie, 'sec-fetch-site': 'same-origin' })).statusCode, 200);
  assert.equal((await patch(fromDesk(s, owner.cookie))).statusCode, 200);
  const crossRead = await s.t.inject({
    method: 'GET',
    url: `${OPERATOR}/staff`,
    headers: { cookie: owner.cookie, origin: 'https://evil.example' },
  });
  assert.equal(crossRead.statusCode, 401, 'no cookie on a cross-origin request');

  const off = await s.t.inject({
    method: 'PATCH',
    url: `${OPERATOR}/staff/${desk.id}`,
    headers: fromDesk(s, owner.cookie),
    payload: { status: 'disabled' },
  });
  assert.equal(off.statusCode, 200);
  assert.equal(off.json().status, 'disabled');
  assert.equal(
    (await s.t.inject({ method: 'GET', url: `${OPERATOR}/hotels`, headers: { cookie: desk.cookie } }))
      .statusCode,
    401,
    'a disabled account’s session ends at once',
  );
  const signIn = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/sign-in`,
    payload: { email: `desk-${u}@example.com`, password: STRONG },
  });
  assert.equal(signIn.statusCode, 401);

  const out = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/sign-out`,
    headers: fromDesk(s, owner.cookie),
  });
  assert.equal(out.statusCode, 204);
  assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
  assert.equal(
    (await s.t.inject({ method: 'GET', url: `${OPERATOR}/staff`, headers: { cookie: owner.cookie } }))
      .statusCode,
    401,
  );
});

test('nobody grants beyond their own role or hotels', async (t) => {
  const s = await startStaffApp(t);
  const u = unique();
  const [h1, h2] = s.hotels;
  const manager = await activeStaff(s, {
    email: `manager-${u}@example.com`,
    role: 'manager',
    hotelIds: [h1.id],
  });
  const invite = (payload: object) =>
    s.t.inject({ method: 'POST', url: `${OPERATOR}/staff`, headers: fromDesk(s, manager.cookie), payload });
  assert.equal(
    (await invite({ email: `o-${u}@example.com`, name: 'O', role: 'owner', hotelIds: [h1.id] })).statusCode,
    403,
  );
  assert.equal(
    (await invite({ email: `x-${u}@example.com`, name: 'X', role: 'front_desk', hotelIds: [h2.id] }))
      .statusCode,
    403,
  );
  assert.equal(
    (await invite({ email: `y-${u}@example.com`, name: 'Y', role: 'front_desk' })).statusCode,
    403,
    'every hotel',
  );
  const ok = await invite({
    email: `z-${u}@example.com`,
    name: 'Z',
    role: 'front_desk',
    hotelIds: [h1.id],
    language: 'pt',
  });
  assert.equal(ok.statusCode, 201, ok.body);
  assert.match(ok.json().id, /^usr_/);
  assert.equal(ok.json().status, 'invited');
  const dup = await invite({ email: `Z-${u}@EXAMPLE.com`, name: 'Z', role: 'front_desk', hotelIds: [h1.id] });
  assert.equal(dup.statusCode, 400);
  const promote = await s.t.inject({
    method: 'PATCH',
    url: `${OPERATOR}/staff/${ok.json().id}`,
    headers: fromDesk(s, manager.cookie),
    payload: { role: 'owner' },
  });
  assert.equal(promote.statusCode, 403);
  const { rows } = await s.t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM staff_accounts WHERE email LIKE $1',
    [`%-${u}@%`],
  );
  assert.equal(rows[0]?.n, 2, 'refusals changed nothing');
  const self = await s.t.inject({
    method: 'PATCH',
    url: `${OPERATOR}/staff/${manager.id}`,
    headers: fromDesk(s, manager.cookie),
    payload: { status: 'disabled' },
  });
  assert.equal(self.statusCode, 403);
});

test('password change ends other sessions; a reset link works once and ends every session', async (t) => {
  const s = await startStaffApp(t);
  const u = unique();
  const first = await activeStaff(s, { email: `pat-${u}@example.com`, role: 'accountant' });
  const second = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/sign-in`,
    payload: { email: `pat-${u}@example.com`, password: STRONG },
  });
  const secondCookie = sessionOf(second.headers['set-cookie']);
  const NEW = 'violet lantern marmalade quorum';
  const changed = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/password`,
    headers: fromDesk(s, first.cookie),
    payload: { currentPassword: STRONG, newPassword: NEW },
  });
  assert.equal(changed.statusCode, 204, changed.body);
  assert.equal(
    (await s.t.inject({ method: 'GET', url: `${AUTH}/me`, headers: { cookie: first.cookie } })).statusCode,
    200,
  );
  assert.equal(
    (await s.t.inject({ method: 'GET', url: `${AUTH}/me`, headers: { cookie: secondCookie } })).statusCode,
    401,
  );

  for (const email of [`pat-${u}@example.com`, `nobody-${u}@example.com`]) {
    const r = await s.t.inject({ method: 'POST', url: `${AUTH}/password-reset`, payload: { email } });
    assert.equal(r.statusCode, 202);
  }
  const { rows } = await s.t.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM guest_messages WHERE kind = 'staff_password_reset' AND recipient LIKE $1",
    [`%-${u}@%`],
  );
  assert.equal(rows[0]?.n, 1, 'only the account gets a reset e-mail');
});

test('an Idempotency-Key is scoped to the person’s session, as to a key', async (t) => {
  const s = await startStaffApp(t);
  const u = unique();
  const a = await activeStaff(s, { email: `a-${u}@example.com`, role: 'owner' });
  const b = await activeStaff(s, { email: `b-${u}@example.com`, role: 'owner' });
  for (const [who, email] of [
    [a, `one-${u}@example.com`],
    [b, `two-${u}@example.com`],
  ] as const) {
    const r = await s.t.inject({
      method: 'POST',
      url: `${OPERATOR}/staff`,
      headers: { ...fromDesk(s, who.cookie), 'idempotency-key': `same-key-${u}` },
      payload: { email, name: 'New', role: 'accountant' },
    });
    assert.equal(r.statusCode, 201, r.body);
    assert.equal(r.json().email, email, 'never another person’s answer');
  }
});
