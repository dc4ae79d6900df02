import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { limitItem } from '../helpers/rate-limit-headers.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

const SEARCH = '/api/v1/booking/availability/search';
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A client address of its own per test, so counts never leak between tests (or runs, in Redis). */
function clientAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

function search(t: TestApp, remoteAddress: string, url = SEARCH) {
  return t.inject({
    method: url === SEARCH ? 'POST' : 'GET',
    url,
    remoteAddress,
    ...(url === SEARCH
      ? { payload: { hotelId: 'nowhere', checkIn: '2030-01-01', checkOut: '2030-01-02', adults: 1 } }
      : {}),
  });
}

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('general rate limit (per client address)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({
      hotels: [makeHotel()],
      env: { RATE_LIMIT_PER_MINUTE: '3', LOG_LEVEL: 'silent' },
    });
  });
  after(() => t.close());

  it('answers the N+1th request with 429 problem+json, Retry-After and RateLimit-Policy / RateLimit', async () => {
    const ip = clientAddress();
    for (let i = 1; i <= 3; i++) {
      const ok = await search(t, ip);
      assert.notEqual(ok.statusCode, 429, `request ${i} is within the limit`);
      assert.equal(ok.headers['ratelimit-policy'], '"general";q=3;w=60');
      assert.equal(limitItem(ok.headers.ratelimit, 'general').r, 3 - i);
      assert.ok(Number(limitItem(ok.headers.ratelimit, 'general').t) > 0);
      for (const obsolete of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
        assert.equal(ok.headers[obsolete], undefined, `no obsolete ${obsolete}`);
    }
    const limited = await search(t, ip);
    assert.equal(limited.statusCode, 429);
    assert.match(String(limited.headers['content-type']), /^application\/problem\+json/);
    const problem = limited.json();
    assert.equal(problem.code, 'rate_limited');
    assert.equal(problem.status, 429);
    assert.equal(problem.type, 'https://innkeep.dev/problems/rate-limited');
    assert.equal(problem.requestId, limited.headers['x-request-id']);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60,
      `Retry-After ${retryAfter}`,
    );
    assert.equal(limited.headers['ratelimit-policy'], '"general";q=3;w=60');
    assert.equal(limitItem(limited.headers.ratelimit, 'general').r, 0);
    assert.ok(Number(limitItem(limited.headers.ratelimit, 'general').t) > 0);
  });

  it('counts each client address apart', async () => {
    const first = clientAddress();
    for (let i = 0; i < 4; i++) await search(t, first);
    assert.equal((await search(t, first)).statusCode, 429);
    assert.notEqual((await search(t, clientAddress())).statusCode, 429);
  });

  it('never limits health, readiness, metrics, the OpenAPI document or the keys', async () => {
    const ip = clientAddress();
    for (let i = 0; i < 4; i++) await search(t, ip);
    assert.equal((await search(t, ip)).statusCode, 429);
    for (const url of ['/healthz', '/readyz', '/metrics', '/api/v1/openapi.json']) {
      for (let i = 0; i < 5; i++) {
        const res = await search(t, ip, url);
        // `/metrics` is hidden from a remote address without METRICS_TOKEN (404), but never limited.
        assert.equal(
          res.statusCode,
          url === '/metrics' ? 404 : 200,
          `${url} answers while the address is limited`,
        );
        assert.equal(res.headers.ratelimit, undefined, `${url} carries no rate-limit headers`);
      }
    }
    if (t.app.hasRoute({ method: 'GET', url: '/.well-known/jwks.json' })) {
      for (let i = 0; i < 5; i++)
        assert.notEqual((await search(t, ip, '/.well-known/jwks.json')).statusCode, 429);
    }
  });

  it('limits unknown routes too (scanners are clients)', async () => {
    const ip = clientAddress();
    for (let i = 0; i < 3; i++) await search(t, ip);
    const res = await t.inject({ method: 'GET', url: '/api/v1/booking/reservations', remoteAddress: ip });
    assert.ok([405, 429].includes(res.statusCode));
  });
});

describe('RATE_LIMIT_PER_MINUTE=0', () => {
  it('turns the general limit off', async (ctx) => {
    const t = await startTestApp(ctx, {
      hotels: [makeHotel()],
      env: { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' },
    });
    const ip = clientAddress();
    for (let i = 0; i < 60; i++) {
      const res = await search(t, ip);
      assert.notEqual(res.statusCode, 429);
      assert.equal(res.headers.ratelimit, undefined);
    }
  });
});

describe('rate limit shared through Redis (REDIS_URL)', () => {
  // Tests are declared synchronously: one declared after an `await` here would not belong to this
  // suite (and, where scripts/run-tests.ts runs several files in one process, not to this file).
  let skip: string | false = false;
  before(async () => {
    skip = (await reachable(REDIS_URL)) ? false : `Redis not reachable at ${REDIS_URL}`;
  });

  it('two app instances share one count per client address', async (t) => {
    if (skip) return t.skip(skip);
    const env = { RATE_LIMIT_PER_MINUTE: '4', REDIS_URL, LOG_LEVEL: 'silent' };
    const a = await startTestApp({ hotels: [makeHotel()], env });
    const b = await startTestApp({ hotels: [makeHotel()], env });
    try {
      const ip = clientAddress();
      assert.equal(limitItem((await search(a, ip)).headers.ratelimit, 'general').r, 3);
      assert.equal(limitItem((await search(b, ip)).headers.ratelimit, 'general').r, 2);
      assert.equal(limitItem((await search(a, ip)).headers.ratelimit, 'general').r, 1);
      assert.equal(limitItem((await search(b, ip)).headers.ratelimit, 'general').r, 0);
      const limitedOnA = await search(a, ip);
      const limitedOnB = await search(b, ip);
      assert.equal(limitedOnA.statusCode, 429);
      assert.equal(limitedOnB.statusCode, 429);
      assert.equal(limitedOnB.json().code, 'rate_limited');
      assert.ok(Number(limitedOnB.headers['retry-after']) > 0);
      // Another address still has its own, untouched count.
      assert.equal(limitItem((await search(b, clientAddress())).headers.ratelimit, 'general').r, 3);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('lets requests through when Redis is unreachable (fails open, never 5xx)', async (ctx) => {
    const t = await startTestApp(ctx, {
      hotels: [makeHotel()],
      env: { RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'silent' },
    });
    const ip = clientAddress();
    for (let i = 0; i < 5; i++) {
      const res = await search(t, ip);
      assert.ok(res.statusCode < 500 && res.statusCode !== 429, `got ${res.statusCode}`);
    }
  });
});
