import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { limitItem } from '../helpers/rate-limit-headers.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from './helpers.ts';

const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('operator authentication limits and logs', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({
      OPERATOR_AUTH_FAILURE_LIMIT: '3',
      OPERATOR_AUTH_FAILURE_WINDOW_SECONDS: '600',
      LOG_LEVEL: 'trace',
    });
  });
  after(() => app.t.close());

  const hotels = (remoteAddress: string, headers: Record<string, string>, url = `${OPERATOR}/hotels`) =>
    app.t.inject({ method: 'GET', url, headers, remoteAddress });

  it('answers 429 with Retry-After after too many failures from one address; a valid key still passes', async () => {
    const ip = address();
    const wrong = auth(`ik_${'b'.repeat(52)}`);
    for (let i = 1; i <= 3; i++) assert.equal((await hotels(ip, wrong)).statusCode, 401, `failure ${i}`);
    const limited = await hotels(ip, wrong);
    assert.equal(limited.statusCode, 429, limited.body);
    assert.equal(limited.json().code, 'rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 600, `Retry-After ${retryAfter}`);
    assert.match(String(limited.headers['ratelimit-policy']), /"operator-auth";q=3;w=\d+/);
    assert.deepEqual(limitItem(limited.headers.ratelimit, 'operator-auth'), { r: 0, t: retryAfter });

    assert.equal((await hotels(ip, auth(app.root))).statusCode, 200, 'a valid key is never blocked');
    assert.equal((await hotels(ip, {})).statusCode, 401, 'no key at all is not a guess: still 401');
    assert.equal((await hotels(address(), wrong)).statusCode, 401, 'another address is not affected');
  });

  it('counts failures in the database, so every process shares them', async () => {
    const ip = address();
    const wrong = auth(`ik_${'c'.repeat(52)}`);
    await hotels(ip, wrong);
    const { rows } = await app.t.db.query<{ failures: number }>(
      'SELECT failures FROM operator_auth_failures',
    );
    assert.ok(rows.some((r) => r.failures >= 1));
  });

  it('never logs a key, even one sent in a URL', async () => {
    const { key } = await makeKey(app, { scopes: ['keys:write'] });
    await hotels(address(), auth(key));
    await hotels(address(), auth(key), `${OPERATOR}/hotels?key=${key}`);
    await app.t.inject({ method: 'GET', url: `${OPERATOR}/keys/${key}`, headers: auth(key) });
    await hotels(address(), auth(`${key}x`));
    const logs = app.t.logs.join('\n');
    assert.ok(logs.includes(`${key.slice(0, 7)}…`), 'request URLs are logged with the key masked');
    assert.equal(logs.includes(key.slice(3)), false, 'the key');
    assert.equal(logs.includes(app.root.slice(3)), false, 'the root key');
  });
});
