/**
 * `GET /metrics` (API.md 5) exposes per-hotel reservation, cancellation and check-in counts: with
 * `METRICS_TOKEN` set it answers only `Authorization: Bearer <METRICS_TOKEN>` (else `401`); unset,
 * only requests from a loopback address (else `404`). Before, it answered anyone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { assertProblem } from '../booking/helpers.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

const scrape = (t: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

describe('GET /metrics without METRICS_TOKEN: loopback only', () => {
  let t: TestApp;
  let proxied: TestApp;
  before(async () => {
    t = await startTestApp({ hotels: [makeHotel()] });
    proxied = await startTestApp({ hotels: [makeHotel()], env: { TRUST_PROXY: 'true' } });
  });
  after(async () => {
    await t.close();
    await proxied.close();
  });

  it('answers a client on this host', async () => {
    for (const address of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) {
      const res = await scrape(t, address);
      assert.equal(res.statusCode, 200, address);
      assert.match(res.body, /innkeep_reservations_created_total/);
    }
  });

  it('is an unknown route to anyone else, and to requests a proxy forwarded', async () => {
    for (const address of ['203.0.113.5', '10.0.0.7', '::ffff:192.168.1.2', '2001:db8::1']) {
      const res = assertProblem(await scrape(t, address), 404, 'not_found');
      assert.equal(res.unknownRoute, true);
    }
    // A reverse proxy on the same host connects from loopback on behalf of anyone.
    assertProblem(await scrape(t, '127.0.0.1', { 'x-forwarded-for': '203.0.113.5' }), 404, 'not_found');
    assertProblem(await scrape(t, '127.0.0.1', { forwarded: 'for=203.0.113.5' }), 404, 'not_found');
    // Any one proxy header is enough, whatever the proxy chose to send (issue 32.10).
    for (const headers of <Record<string, string>[]>[
      { 'x-real-ip': '203.0.113.5' },
      { via: '1.1 proxy' },
      { 'x-forwarded-host': 'innkeep.example' },
      { 'x-forwarded-proto': 'https' },
      { 'X-Forwarded-Port': '443' },
    ]) {
      assertProblem(await scrape(t, '127.0.0.1', headers), 404, 'not_found');
    }
    // Trusting proxies does not let a remote client claim to be local.
    assertProblem(await scrape(proxied, '203.0.113.5', { 'x-forwarded-for': '127.0.0.1' }), 404, 'not_found');
    assert.equal((await scrape(proxied, '127.0.0.1')).statusCode, 200);
  });
});

describe('GET /metrics with METRICS_TOKEN: the bearer token, from anywhere', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ hotels: [makeHotel()], env: { METRICS_TOKEN: TOKEN } });
  });
  after(() => t.close());

  it('answers the token from any address', async () => {
    for (const address of ['203.0.113.5', '127.0.0.1']) {
      const res = await scrape(t, address, { authorization: `Bearer ${TOKEN}` });
      assert.equal(res.statusCode, 200, address);
    }
  });

  it('answers 401 without it or with another, even from loopback', async () => {
    for (const headers of <Array<Record<string, string>>>[
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(1)}` },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    ]) {
      for (const address of ['203.0.113.5', '127.0.0.1']) {
        const res = await scrape(t, address, headers);
        assertProblem(res, 401, 'unauthorized');
        assert.match(String(res.headers['www-authenticate']), /^Bearer realm="innkeep-metrics"/);
        assert.doesNotMatch(res.body, /innkeep_/);
      }
    }
  });

  it('a guessable token is refused at start', () => {
    for (const bad of ['short', 'has a space in it 0123456789']) {
      assert.throws(() => loadConfig({ METRICS_TOKEN: bad }), ConfigError, bad);
    }
    assert.equal(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken, TOKEN);
  });
});
