/**
 * TRUST_PROXY (API.md section 6): `true`, `false`, a hop count or a list of proxy addresses/CIDRs;
 * any other value stops the start (exit 78) saying why. Before, `TRUE` or `1` silently meant false,
 * and behind a load balancer every guest then shared the balancer's address for rate limits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { nodeScript } from '../helpers/node-command.ts';
import { run } from '../helpers/service-process.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

const HEALTH = '/healthz';
const SEARCH = '/api/v1/booking/availability/search';

describe('TRUST_PROXY is read as the contract says', () => {
  it('accepts true and false in any case, hop counts and lists of addresses or CIDRs', () => {
    const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    assert.equal(loadConfig({}).trustProxy, false);
    for (const value of ['true', 'TRUE', 'True', ' true ']) assert.equal(trust(value), true, value);
    for (const value of ['false', 'FALSE', 'False']) assert.equal(trust(value), false, value);
    assert.equal(trust('1'), 1);
    assert.equal(trust('2'), 2);
    assert.equal(trust('0'), 0);
    assert.deepEqual(trust('10.0.0.0/8, 192.168.1.10 ,::1,fd00::/8,loopback'), [
      '10.0.0.0/8',
      '192.168.1.10',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses anything else, saying what it accepts', () => {
    for (const value of [
      'yes',
      'on',
      '1.5',
      '10.0.0.0/33',
      '300.1.1.1',
      'proxy.example.com',
      '10.0.0.1,',
      '-1',
      '101',
    ]) {
      assert.throws(
        () => loadConfig({ TRUST_PROXY: value }),
        (error: unknown) => error instanceof ConfigError && /TRUST_PROXY/.test(error.message),
        value,
      );
    }
  });

  it('the server exits 78 with the reason for a value it cannot read', async () => {
    const result = await run(nodeScript('src/server.ts'), { TRUST_PROXY: 'yes', PORT: '0' });
    assert.equal(result.code, 78, result.stderr);
    assert.match(result.stderr, /TRUST_PROXY must be true, false, a hop count/);
  });
});

describe('TRUST_PROXY decides which address a request is counted against', () => {
  // Two requests a minute per address; requests come from the load balancer at 10.9.9.9.
  const apps: Record<string, TestApp> = {};
  const settings = { upper: 'TRUE', hops: '1', list: '10.9.9.0/24', off: 'false' };
  before(async () => {
    for (const [name, value] of Object.entries(settings)) {
      apps[name] = await startTestApp({
        hotels: [makeHotel()],
        env: { TRUST_PROXY: value, RATE_LIMIT_PER_MINUTE: '2' },
      });
    }
  });
  after(async () => {
    for (const t of Object.values(apps)) await t.close();
  });

  const fromGuest = (t: TestApp, guest: string) =>
    t.inject({
      method: 'POST',
      url: SEARCH,
      remoteAddress: '10.9.9.9',
      headers: { 'x-forwarded-for': guest },
      payload: { hotelId: 'nowhere', checkIn: '2030-01-01', checkOut: '2030-01-02', adults: 1 },
    });

  for (const name of ['upper', 'hops', 'list'] as const) {
    it(`TRUST_PROXY=${settings[name]}: each guest behind the balancer has a limit of its own`, async () => {
      const t = apps[name] as TestApp;
      for (const guest of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        assert.notEqual((await fromGuest(t, guest)).statusCode, 429, guest);
        assert.notEqual((await fromGuest(t, guest)).statusCode, 429, guest);
      }
      assert.equal((await fromGuest(t, '203.0.113.1')).statusCode, 429);
    });
  }

  it('TRUST_PROXY=false: the balancer’s address is every guest’s', async () => {
    const t = apps.off as TestApp;
    await fromGuest(t, '203.0.113.1');
    await fromGuest(t, '203.0.113.2');
    assert.equal((await fromGuest(t, '203.0.113.3')).statusCode, 429);
  });

  it('a hop count believes only that many hops', async () => {
    // With one trusted hop, a client that prepends its own X-Forwarded-For gains nothing.
    const t = apps.hops as TestApp;
    const spoof = (fake: string) =>
      t.inject({
        method: 'GET',
        url: HEALTH,
        remoteAddress: '10.9.9.9',
        headers: { 'x-forwarded-for': `${fake}, 198.51.100.77` },
      });
    assert.equal((await spoof('192.0.2.1')).statusCode, 200);
    const search = (fake: string) =>
      t.inject({
        method: 'POST',
        url: SEARCH,
        remoteAddress: '10.9.9.9',
        headers: { 'x-forwarded-for': `${fake}, 198.51.100.77` },
        payload: { hotelId: 'nowhere', checkIn: '2030-01-01', checkOut: '2030-01-02', adults: 1 },
      });
    await search('192.0.2.1');
    await search('192.0.2.2');
    assert.equal(
      (await search('192.0.2.3')).statusCode,
      429,
      'counted against 198.51.100.77, the hop the balancer saw',
    );
  });
});
