/**
 * Issue 41 item 1: while the service sheds load, AlpineBits pings answered `500 ERROR:internal
 * error` (logged as failures) where every other route answered `503` with `Retry-After`; the 503 of
 * a shutdown went the same way. Now both are `503`, `ERROR:` text with `Retry-After` (the protocol's
 * answers are never problem+json), logged as a refusal, not as a fault.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import lightMyRequest from 'light-my-request';
import { type Database, DatabaseUnavailableError } from '../../src/infra/db/database.ts';
import { ALPINEBITS, basic, freeRooms, multipart, ota } from '../channels/alpinebits-client.ts';
import { startOperatorApp } from '../operator-access/helpers.ts';

const ping = () =>
  multipart([
    ['action', 'OTA_Ping:Handshaking'],
    ['request', ota('OTA_PingRQ', '<EchoData>x</EchoData>')],
  ]);

function pingRequest(key: string) {
  const { body, contentType } = ping();
  return {
    method: 'POST' as const,
    url: ALPINEBITS,
    headers: { ...basic(key), 'content-type': contentType, 'x-alpinebits-clientprotocolversion': '2022-10' },
    payload: body,
  };
}

/** Error-level lines (pino level 50 and above) the service logged. */
const faults = (logs: string[]) => logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

function assertUnavailable(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  assert.equal(res.statusCode, 503, res.body);
  assert.match(res.body, /^ERROR:/);
  assert.match(String(res.headers['content-type']), /^text\/plain/);
  assert.ok(Number(res.headers['retry-after']) > 0, `Retry-After: ${res.headers['retry-after']}`);
}

describe('AlpineBits while the service cannot serve', () => {
  it('answers 503 with Retry-After while the service sheds load, logged as shedding', async () => {
    const app = await startOperatorApp({ LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '20', LOG_LEVEL: 'info' });
    const { t } = app;
    try {
      await t.app.ready();
      const served = await t.inject(pingRequest(app.root));
      assert.equal(served.statusCode, 200, served.body);
      // Keep the loop late in slices until the sampler has seen it late twice in a row (bounded):
      // the service is overloaded by construction, not by timing luck.
      for (let i = 0; i < 100 && !t.app.loadStatus().overloaded; i++) {
        const until = Date.now() + 150;
        while (Date.now() < until) {}
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.ok(t.app.loadStatus().overloaded, 'the sampler saw the lag');
      const before = t.logs.length;
      const shed = await t.inject(pingRequest(app.root));
      assertUnavailable(shed);
      const logged = t.logs.slice(before);
      assert.deepEqual(faults(logged), [], 'shedding is not a fault');
      assert.ok(
        logged.some((line) => line.includes('request shed')),
        'logged as shedding',
      );
    } finally {
      await t.close();
    }
  });

  it('answers 503 with Retry-After while the service shuts down', async () => {
    const app = await startOperatorApp({ LOG_LEVEL: 'info' });
    const { t } = app;
    try {
      await t.app.ready();
      const closing = t.app.close();
      // The app refuses new requests from its first closing step on (load-shedding.ts, preClose);
      // a request still reaching the router then (a kept-alive connection) is the one asked here.
      await new Promise((resolve) => setImmediate(resolve));
      const before = t.logs.length;
      const res = await lightMyRequest(t.app.routing, pingRequest(app.root));
      await closing;
      assertUnavailable(res);
      assert.equal(res.headers.connection, 'close');
      assert.deepEqual(faults(t.logs.slice(before)), [], 'shutting down is not a fault');
    } finally {
      await t.close();
    }
  });

  it('answers 503 with Retry-After while the database is out of reach', async () => {
    const state = { down: false };
    const unavailable = () => Promise.reject(new DatabaseUnavailableError(new Error('connection refused')));
    const wrapDb = (db: Database): Database => ({
      ...db,
      query: ((sql: string, params?: readonly unknown[]) =>
        state.down ? unavailable() : db.query(sql, params)) as Database['query'],
      transaction: ((fn: Parameters<Database['transaction']>[0]) =>
        state.down ? unavailable() : db.transaction(fn)) as Database['transaction'],
    });
    const app = await startOperatorApp({ LOG_LEVEL: 'silent' }, undefined, { wrapDb });
    const { t } = app;
    try {
      const hotel = app.hotels[0];
      const today = new Date().toISOString().slice(0, 10);
      const { body, contentType } = multipart([
        ['action', 'OTA_HotelInvCountNotif:FreeRooms'],
        ['request', freeRooms(hotel.id, [{ roomTypeId: 'double', start: today, end: today, count: 1 }])],
      ]);
      state.down = true;
      const res = await t.inject({
        method: 'POST',
        url: ALPINEBITS,
        headers: {
          ...basic(app.root),
          'content-type': contentType,
          'x-alpinebits-clientprotocolversion': '2022-10',
        },
        payload: body,
      });
      state.down = false;
      assertUnavailable(res);
    } finally {
      state.down = false;
      await t.close();
    }
  });
});
