import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import {
  AUTH,
  activeStaff,
  fromDesk,
  OPERATOR,
  STRONG,
  type StaffApp,
  sessionOf,
  startStaffApp,
} from './helpers.ts';
import { SoftwareAuthenticator } from './software-authenticator.ts';

const unique = () => randomUUID().slice(0, 8);

function authenticatorFor(s: StaffApp): SoftwareAuthenticator {
  const url = new URL(s.t.config.publicBaseUrl);
  return new SoftwareAuthenticator(url.hostname, url.origin);
}

async function registrationOptions(s: StaffApp, cookie: string) {
  const r = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/passkeys/options`,
    headers: fromDesk(s, cookie),
  });
  assert.equal(r.statusCode, 200, r.body);
  return r.json();
}

async function signInOptions(s: StaffApp) {
  const r = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/passkey/options`,
    headers: { origin: s.origin },
  });
  assert.equal(r.statusCode, 200, r.body);
  return r.json();
}

const registerWith = (s: StaffApp, cookie: string, payload: object) =>
  s.t.inject({ method: 'POST', url: `${AUTH}/passkeys`, headers: fromDesk(s, cookie), payload });

const signInWith = (s: StaffApp, response: object) =>
  s.t.inject({
    method: 'POST',
    url: `${AUTH}/passkey/sign-in`,
    headers: { origin: s.origin },
    payload: { response },
  });

const passkeysOf = async (s: StaffApp, cookie: string) => {
  const me = await s.t.inject({ method: 'GET', url: `${AUTH}/me`, headers: { cookie } });
  assert.equal(me.statusCode, 200, me.body);
  return me.json().passkeys as Array<{
    id: string;
    name: string;
    createdAt: string;
    lastUsedAt: string | null;
  }>;
};

/** A signed-in person with one registered passkey. */
async function withPasskey(s: StaffApp, role: 'owner' | 'front_desk' = 'front_desk') {
  const person = await activeStaff(s, { email: `pk-${unique()}@example.com`, role });
  const authenticator = authenticatorFor(s);
  const options = await registrationOptions(s, person.cookie);
  const added = await registerWith(s, person.cookie, {
    response: authenticator.register(options),
    name: 'Desk laptop',
  });
  assert.equal(added.statusCode, 201, added.body);
  return { ...person, authenticator, passkey: added.json() as { id: string } };
}

test('a passkey is registered when signed in, then signs in as a password does, and me lists it with its last use', async (t) => {
  const s = await startStaffApp(t);
  const email = `ana-${unique()}@example.com`;
  const person = await activeStaff(s, { email, role: 'front_desk' });
  const options = await registrationOptions(s, person.cookie);
  const rp = new URL(s.t.config.publicBaseUrl);
  assert.equal(options.rp.id, rp.hostname, 'the relying party is the host of PUBLIC_BASE_URL');
  assert.equal(options.authenticatorSelection.residentKey, 'required', 'a discoverable credential');
  assert.match(options.challenge, /^[A-Za-z0-9_-]{20,}$/);

  const authenticator = authenticatorFor(s);
  const added = await registerWith(s, person.cookie, {
    response: authenticator.register(options),
    name: 'Desk laptop',
  });
  assert.equal(added.statusCode, 201, added.body);
  assert.match(added.json().id, /^pk_[0-9a-z]+$/);
  assert.equal(added.json().name, 'Desk laptop');
  assert.equal(added.json().lastUsedAt, null);

  const again = await registrationOptions(s, person.cookie);
  assert.deepEqual(
    again.excludeCredentials.map((c: { id: string }) => c.id),
    [authenticator.id],
    'a second registration excludes the passkeys held',
  );

  const request = await signInOptions(s);
  assert.equal(request.userVerification, 'preferred');
  assert.equal(request.rpId, rp.hostname);
  assert.ok(
    !request.allowCredentials || request.allowCredentials.length === 0,
    'discoverable: no list of credentials',
  );
  s.t.clock.advance(60_000);
  const before = s.t.clock.now().getTime();
  const signedIn = await signInWith(s, authenticator.authenticate(request));
  const after = s.t.clock.now().getTime();
  assert.equal(signedIn.statusCode, 200, signedIn.body);
  assert.equal(signedIn.json().user.id, person.id);
  const byPassword = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/sign-in`,
    headers: { origin: s.origin },
    payload: { email, password: STRONG },
  });
  assert.deepEqual(signedIn.json(), byPassword.json(), 'the same answer as a password sign-in');
  const setCookie = String(signedIn.headers['set-cookie']);
  assert.match(setCookie, /^innkeep_session=[0-9a-z]{40,}; /);
  assert.match(setCookie, /HttpOnly/);
  assert.match(setCookie, /SameSite=Strict/);

  const cookie = sessionOf(signedIn.headers['set-cookie']);
  const listed = await passkeysOf(s, cookie);
  assert.equal(listed.length, 1);
  assert.equal(listed[0]?.id, added.json().id);
  const lastUsed = Date.parse(listed[0]?.lastUsedAt ?? '');
  assert.ok(lastUsed >= before && lastUsed <= after, `last used at the sign-in: ${listed[0]?.lastUsedAt}`);

  const reservations = await s.t.inject({
    method: 'GET',
    url: `${OPERATOR}/reservations`,
    headers: { cookie },
  });
  assert.notEqual(reservations.statusCode, 401, 'the passkey session authenticates the operator API');
});

test('registration refuses a replayed, expired, other-origin, other-relying-party or forged response and stores nothing', async (t) => {
  const s = await startStaffApp(t);
  const person = await activeStaff(s, { email: `reg-${unique()}@example.com`, role: 'manager' });

  const firstOptions = await registrationOptions(s, person.cookie);
  const first = authenticatorFor(s).register(firstOptions);
  assert.equal((await registerWith(s, person.cookie, { response: first })).statusCode, 201);
  const replayed = await registerWith(s, person.cookie, { response: first });
  assert.equal(replayed.statusCode, 400, 'a challenge is single use');
  assert.equal(replayed.json().code, 'validation_error');
  assert.equal(replayed.json().errors[0].path, '/response');

  const refusals: Array<[string, (options: { challenge: string; user: { id: string } }) => object]> = [
    ['another origin', (o) => authenticatorFor(s).register(o, { origin: 'https://evil.example' })],
    ['another relying party', (o) => authenticatorFor(s).register(o, { rpId: 'evil.example' })],
    [
      'a challenge never issued',
      (o) => authenticatorFor(s).register(o, { challenge: 'bm90LWlzc3VlZC1ieS11cy1ldmVy' }),
    ],
    [
      'a tampered attestation',
      (o) => {
        const r = authenticatorFor(s).register(o) as { response: { attestationObject: string } };
        r.response.attestationObject = Buffer.from('not cbor at all').toString('base64url');
        return r;
      },
    ],
  ];
  for (const [what, make] of refusals) {
    const options = await registrationOptions(s, person.cookie);
    const r = await registerWith(s, person.cookie, { response: make(options) });
    assert.equal(r.statusCode, 400, `${what}: ${r.body}`);
    assert.equal(r.json().errors[0].path, '/response', what);
  }

  const late = await registrationOptions(s, person.cookie);
  s.t.clock.advance(5 * 60_000 + 1000);
  const expired = await registerWith(s, person.cookie, { response: authenticatorFor(s).register(late) });
  assert.equal(expired.statusCode, 400, 'a challenge lives 5 minutes');

  // Another person's challenge is not one's own.
  const other = await activeStaff(s, { email: `other-${unique()}@example.com`, role: 'front_desk' });
  const theirs = await registrationOptions(s, other.cookie);
  const stolen = await registerWith(s, person.cookie, { response: authenticatorFor(s).register(theirs) });
  assert.equal(stolen.statusCode, 400, 'a challenge belongs to the person it was issued to');

  assert.equal((await passkeysOf(s, person.cookie)).length, 1, 'only the first registration stored anything');

  const shapeless = await registerWith(s, person.cookie, { response: { id: 'x\u0000y' } });
  assert.equal(shapeless.statusCode, 400);
  const unknownField = await registerWith(s, person.cookie, {
    response: { ...authenticatorFor(s).register(await registrationOptions(s, person.cookie)), extra: 1 },
  });
  assert.equal(unknownField.statusCode, 400, 'unknown fields are refused');
});

test('registration and removal need a session from the service’s own pages', async (t) => {
  const s = await startStaffApp(t);
  const { cookie, passkey } = await withPasskey(s);
  const anonymous = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/passkeys/options`,
    headers: { origin: s.origin },
  });
  assert.equal(anonymous.statusCode, 401);
  const crossOptions = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/passkeys/options`,
    headers: { cookie, origin: 'https://evil.example' },
  });
  assert.equal(crossOptions.statusCode, 403);
  const crossDelete = await s.t.inject({
    method: 'DELETE',
    url: `${AUTH}/passkeys/${passkey.id}`,
    headers: { cookie, origin: 'https://evil.example' },
  });
  assert.equal(crossDelete.statusCode, 403);
  const crossSite = await s.t.inject({
    method: 'DELETE',
    url: `${AUTH}/passkeys/${passkey.id}`,
    headers: { cookie, 'sec-fetch-site': 'cross-site' },
  });
  assert.equal(crossSite.statusCode, 403);
  assert.equal((await passkeysOf(s, cookie)).length, 1, 'nothing removed');
});

test('a passkey is removed by its holder only, and then signs no one in', async (t) => {
  const s = await startStaffApp(t);
  const holder = await withPasskey(s);
  const other = await activeStaff(s, { email: `else-${unique()}@example.com`, role: 'owner' });
  const notTheirs = await s.t.inject({
    method: 'DELETE',
    url: `${AUTH}/passkeys/${holder.passkey.id}`,
    headers: fromDesk(s, other.cookie),
  });
  assert.equal(notTheirs.statusCode, 404, 'another’s passkey is not found, even by an owner');
  const badId = await s.t.inject({
    method: 'DELETE',
    url: `${AUTH}/passkeys/nope`,
    headers: fromDesk(s, holder.cookie),
  });
  assert.equal(badId.statusCode, 400);

  const removed = await s.t.inject({
    method: 'DELETE',
    url: `${AUTH}/passkeys/${holder.passkey.id}`,
    headers: fromDesk(s, holder.cookie),
  });
  assert.equal(removed.statusCode, 204, removed.body);
  const { rows: audited } = await s.t.db.query<{ action: string; details: { passkeyId: string } }>(
    "SELECT action, details FROM audit_entries WHERE actor_id = $1 AND action LIKE 'staff.passkey%' ORDER BY at, action",
    [holder.id],
  );
  assert.deepEqual(
    audited.map((r) => [r.action, r.details.passkeyId]),
    [
      ['staff.passkey_added', holder.passkey.id],
      ['staff.passkey_removed', holder.passkey.id],
    ],
    'adding and removing a passkey are audited, with the person as actor',
  );
  assert.deepEqual(await passkeysOf(s, holder.cookie), []);
  const twice = await s.t.inject({
    method: 'DELETE',
    url: `${AUTH}/passkeys/${holder.passkey.id}`,
    headers: fromDesk(s, holder.cookie),
  });
  assert.equal(twice.statusCode, 404);

  const r = await signInWith(s, holder.authenticator.authenticate(await signInOptions(s)));
  assert.equal(r.statusCode, 401);
  assert.equal(r.json().code, 'sign_in_failed');
});

test('passkey sign-in refuses replayed, expired, other-origin, forged and cloned answers, and a disabled account, all alike', async (t) => {
  const s = await startStaffApp(t);
  const owner = await activeStaff(s, { email: `boss-${unique()}@example.com`, role: 'owner' });
  const { id, authenticator } = await withPasskey(s);

  const good = authenticator.authenticate(await signInOptions(s));
  assert.equal((await signInWith(s, good)).statusCode, 200);

  const refusals: Array<[string, () => Promise<object>]> = [
    ['a replayed answer', async () => good],
    [
      'another origin',
      async () => authenticator.authenticate(await signInOptions(s), { origin: 'https://evil.example' }),
    ],
    [
      'another relying party',
      async () => authenticator.authenticate(await signInOptions(s), { rpId: 'evil.example' }),
    ],
    [
      'a signature by another key',
      async () =>
        authenticator.authenticate(await signInOptions(s), {
          signWith: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
        }),
    ],
    [
      'a challenge never issued',
      async () => authenticator.authenticate({ challenge: 'bm90LWlzc3VlZC1ieS11cy1ldmVy' }),
    ],
    [
      'a counter that did not move on (a cloned authenticator)',
      // 1: the counter of the one sign-in accepted so far (refused answers move nothing).
      async () => authenticator.authenticate(await signInOptions(s), { counter: 1 }),
    ],
    ['an unknown passkey', async () => authenticatorFor(s).authenticate(await signInOptions(s))],
    [
      'an expired challenge',
      async () => {
        const options = await signInOptions(s);
        s.t.clock.advance(5 * 60_000 + 1000);
        return authenticator.authenticate(options);
      },
    ],
  ];
  const bodies = new Set<string>();
  for (const [what, make] of refusals) {
    const r = await signInWith(s, await make());
    assert.equal(r.statusCode, 401, `${what}: ${r.body}`);
    assert.equal(r.headers['set-cookie'], undefined, what);
    const { instance: _instance, requestId: _requestId, ...body } = r.json();
    bodies.add(JSON.stringify(body));
  }
  assert.equal(bodies.size, 1, `every refusal reads the same: ${[...bodies].join('\n')}`);

  // The counter kept by the service moved on only with accepted sign-ins: a good one still works.
  assert.equal((await signInWith(s, authenticator.authenticate(await signInOptions(s)))).statusCode, 200);

  const disabled = await s.t.inject({
    method: 'PATCH',
    url: `${OPERATOR}/staff/${id}`,
    headers: fromDesk(s, owner.cookie),
    payload: { status: 'disabled' },
  });
  assert.equal(disabled.statusCode, 200, disabled.body);
  const refused = await signInWith(s, authenticator.authenticate(await signInOptions(s)));
  assert.equal(refused.statusCode, 401, 'a disabled account’s passkey cannot sign in');

  const shapeless = await signInWith(s, { id: authenticator.id, type: 'public-key' });
  assert.equal(shapeless.statusCode, 400);
  assert.equal(shapeless.json().code, 'validation_error');
  const crossOrigin = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/passkey/sign-in`,
    headers: { origin: 'https://evil.example' },
    payload: { response: good },
  });
  assert.equal(crossOrigin.statusCode, 403, 'no other origin’s page signs a browser in');
});

test('one challenge answered twice at once signs in once', async (t) => {
  const s = await startStaffApp(t);
  const { authenticator } = await withPasskey(s);
  for (let round = 0; round < 3; round++) {
    const answer = authenticator.authenticate(await signInOptions(s));
    const results = await Promise.all([signInWith(s, answer), signInWith(s, answer)]);
    assert.deepEqual(
      results.map((r) => r.statusCode).sort(),
      [200, 401],
      results.map((r) => r.body).join('\n'),
    );
  }
});
