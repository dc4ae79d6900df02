/**
 * Issue 23 item 4: the public API and the operator API shared one counter per address, so after a
 * burst of guests the desk's calendar answered 429 for most of a minute. An operator request is
 * limited by its key (OPERATOR_RATE_LIMIT_PER_MINUTE), never by guest traffic from its address.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../booking/helpers.ts';
import { limitItem } from '../helpers/rate-limit-headers.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

const SEARCH = '/api/v1/booking/availability/search';
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function search(t: TestApp, remoteAddress: string) {
  return t.inject({
    method: 'POST',
    url: SEARCH,
    remoteAddress,
    payload: { hotelId: 'nowhere', checkIn: '2030-01-01', checkOut: '2030-01-02', adults: 1 },
  });
}

function hotels(t: TestApp, remoteAddress: string, key: string) {
  return t.inject({ method: 'GET', url: `${OPERATOR}/hotels`, remoteAddress, headers: auth(key) });
}

describe('the operator API is limited per key, apart from guests', () => {
  let app: OperatorApp;
  let t: TestApp;
  before(async () => {
    app = await startOperatorApp({ RATE_LIMIT_PER_MINUTE: '3', OPERATOR_RATE_LIMIT_PER_MINUTE: '5' });
    t = app.t;
  });
  after(() => t.close());

  it('guests using up their address’s limit do not lock out the desk at that address', async () => {
    const desk = address();
    const { key } = await makeKey(app, { scopes: ['reservations:read'] });
    for (let i = 0; i < 3; i++) assert.notEqual((await search(t, desk)).statusCode, 429);
    assertProblem(await search(t, desk), 429, 'rate_limited');
    const res = await hotels(t, desk, key);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(limitItem(res.headers['ratelimit-policy'], 'operator'), { q: 5, w: 60 });
    assert.equal(limitItem(res.headers.ratelimit, 'operator').r, 4);
    assert.throws(() => limitItem(res.headers['ratelimit-policy'], 'general'), 'only its own limit');
  });

  it('a key over its limit gets 429 with its own RateLimit item; another key, and guests, go on', async () => {
    const desk = address();
    const first = await makeKey(app, { scopes: ['reservations:read'] });
    const second = await makeKey(app, { scopes: ['reservations:read'] });
    for (let i = 0; i < 5; i++) assert.equal((await hotels(t, desk, first.key)).statusCode, 200);
    const limited = await hotels(t, desk, first.key);
    assertProblem(limited, 429, 'rate_limited');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.deepEqual(limitItem(limited.headers['ratelimit-policy'], 'operator'), { q: 5, w: 60 });
    assert.equal(limitItem(limited.headers.ratelimit, 'operator').r, 0);
    // The same key from another address is the same caller: still limited.
    assertProblem(await hotels(t, address(), first.key), 429, 'rate_limited');
    assert.equal((await hotels(t, desk, second.key)).statusCode, 200, 'another key has its own count');
    // Operator traffic never counted against the guests of the desk's address.
    for (let i = 0; i < 3; i++) assert.notEqual((await search(t, desk)).statusCode, 429);
  });
});

describe('each limit can be turned off alone', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({ RATE_LIMIT_PER_MINUTE: '0', OPERATOR_RATE_LIMIT_PER_MINUTE: '2' });
  });
  after(() => app.t.close());

  it('with the general limit off, guests are not limited and operator keys still are', async () => {
    const desk = address();
    for (let i = 0; i < 5; i++) assert.notEqual((await search(app.t, desk)).statusCode, 429);
    for (let i = 0; i < 2; i++) assert.equal((await hotels(app.t, desk, app.root)).statusCode, 200);
    assertProblem(await hotels(app.t, desk, app.root), 429, 'rate_limited');
  });
});
