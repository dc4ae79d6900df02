/**
 * Staff sessions across two service processes on one PostgreSQL database (API.md 12): a sign-out
 * or a disabled account on one process is refused by the other at once (sessions are read from
 * the database on every request, never cached). The first owner comes from `npm run staff`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nodeScript } from '../helpers/node-command.ts';
import { makeHotel } from '../helpers/test-app.ts';
import {
  DATABASE_URL,
  http,
  needsPostgres,
  newEncryptionKey,
  run,
  type ServiceProcess,
  startService,
  writeCatalog,
} from '../postgres/support.ts';
import { SoftwareAuthenticator } from './software-authenticator.ts';

const PUBLIC_BASE_URL = 'https://innkeep.example';
const STRONG = 'correct horse battery staple orbit';
const OWN = { origin: PUBLIC_BASE_URL };

describe('staff sessions on two processes', () => {
  const hotel = makeHotel({ name: 'Harbour View' });
  const services: ServiceProcess[] = [];
  let env: Record<string, string>;

  before(async () => {
    if (needsPostgres) return;
    env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: newEncryptionKey(),
      CATALOG_FILE: await writeCatalog([hotel]),
      PUBLIC_BASE_URL,
      DB_POOL_SIZE: '3',
    };
    services.push(...(await Promise.all([startService(env), startService(env)])));
  });
  after(async () => {
    if (needsPostgres) return;
    await Promise.all(services.map((s) => s.stop()));
  });

  test('sign-out and disabling on one process are refused by the other at once', {
    skip: needsPostgres,
  }, async () => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    const invite = (email: string, role: string) =>
      run(
        [...nodeScript('src/cli/staff.ts'), 'invite', '--email', email, '--name', 'Test', '--role', role],
        env,
      );
    const cli = await invite('owner@example.com', 'owner');
    assert.equal(cli.code, 0, cli.stderr);
    const link = /^https:\/\/innkeep\.example\/desk\/welcome#(stk_[0-9a-z]+)$/m.exec(cli.stdout);
    assert.ok(link, cli.stdout);

    const accepted = await fetch(`${a.baseUrl}/api/v1/auth/invitations/${link[1]}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...OWN },
      body: JSON.stringify({ password: STRONG }),
    });
    assert.equal(accepted.status, 201);
    const owner = (accepted.headers.get('set-cookie') ?? '').split(';')[0] as string;
    assert.match(owner, /^innkeep_session=/);
    assert.match(accepted.headers.get('set-cookie') ?? '', /; Secure/, 'Secure under https');

    const desk = await invite('desk@example.com', 'front_desk');
    const deskToken = /#(stk_[0-9a-z]+)$/m.exec(desk.stdout)?.[1];
    const deskAccepted = await fetch(`${b.baseUrl}/api/v1/auth/invitations/${deskToken}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...OWN },
      body: JSON.stringify({ password: STRONG }),
    });
    assert.equal(deskAccepted.status, 201);
    const deskCookie = (deskAccepted.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const deskId = ((await deskAccepted.json()) as { user: { id: string } }).user.id;

    // Signed in on A, the cookie works on B.
    for (const s of [a, b]) {
      assert.equal(
        (await http(s.baseUrl, 'GET', '/api/v1/operator/staff', undefined, { cookie: owner })).status,
        200,
      );
      assert.equal(
        (await http(s.baseUrl, 'GET', '/api/v1/operator/hotels', undefined, { cookie: deskCookie })).status,
        200,
      );
    }

    // Disabled on A: B refuses the person's next request.
    const off = await http(
      b.baseUrl,
      'PATCH',
      `/api/v1/operator/staff/${deskId}`,
      { status: 'disabled' },
      {
        cookie: owner,
        ...OWN,
      },
    );
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(
      (await http(a.baseUrl, 'GET', '/api/v1/operator/hotels', undefined, { cookie: deskCookie })).status,
      401,
    );

    // Signed out on A: B refuses the cookie at once.
    assert.equal(
      (await http(a.baseUrl, 'POST', '/api/v1/auth/sign-out', undefined, { cookie: owner, ...OWN })).status,
      204,
    );
    assert.equal(
      (await http(b.baseUrl, 'GET', '/api/v1/operator/staff', undefined, { cookie: owner })).status,
      401,
    );
  });

  test('a passkey challenge issued by one process is used once across both', {
    skip: needsPostgres,
  }, async () => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    const cli = await run(
      [
        ...nodeScript('src/cli/staff.ts'),
        'invite',
        '--email',
        'keyholder@example.com',
        '--name',
        'Key Holder',
        '--role',
        'front_desk',
      ],
      env,
    );
    assert.equal(cli.code, 0, cli.stderr);
    const token = /#(stk_[0-9a-z]+)$/m.exec(cli.stdout)?.[1];
    const accepted = await http(
      a.baseUrl,
      'POST',
      `/api/v1/auth/invitations/${token}/accept`,
      {
        password: STRONG,
      },
      OWN,
    );
    assert.equal(accepted.status, 201);
    const cookie = String(accepted.headers.get('set-cookie')).split(';')[0] as string;

    // Options from A, the registration on B.
    const authenticator = new SoftwareAuthenticator(new URL(PUBLIC_BASE_URL).hostname, PUBLIC_BASE_URL);
    const creation = await http(a.baseUrl, 'POST', '/api/v1/auth/passkeys/options', undefined, {
      cookie,
      ...OWN,
    });
    assert.equal(creation.status, 200);
    const registered = await http(
      b.baseUrl,
      'POST',
      '/api/v1/auth/passkeys',
      { response: authenticator.register(creation.body as never) },
      { cookie, ...OWN },
    );
    assert.equal(registered.status, 201, JSON.stringify(registered.body));

    // One answer sent to both processes at once: exactly one signs in.
    for (let round = 0; round < 3; round++) {
      const request = await http(b.baseUrl, 'POST', '/api/v1/auth/passkey/options', undefined, OWN);
      const answer = { response: authenticator.authenticate(request.body as never) };
      const results = await Promise.all([
        http(a.baseUrl, 'POST', '/api/v1/auth/passkey/sign-in', answer, OWN),
        http(b.baseUrl, 'POST', '/api/v1/auth/passkey/sign-in', answer, OWN),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 401]);
    }
  });
});
