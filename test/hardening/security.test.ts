import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { loadShedding } from '../../src/infra/http/load-shedding.ts';
import { daysFromNow, makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

const SEARCH = '/api/v1/booking/availability/search';
const burstHotel = makeHotel();

async function book(t: TestApp, hotelId: string) {
  const quote = await t.inject({
    method: 'POST',
    url: '/api/v1/booking/quote',
    payload: {
      hotelId,
      checkIn: daysFromNow(40),
      checkOut: daysFromNow(42),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    },
  });
  assert.equal(quote.statusCode, 201, quote.body);
  const created = await t.inject({
    method: 'POST',
    url: '/api/v1/booking/reservations',
    payload: {
      quoteId: quote.json().id,
      guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' },
    },
  });
  assert.equal(created.statusCode, 201, created.body);
  return created.json() as { id: string; accessToken: string };
}

describe('security headers (helmet)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ hotels: [makeHotel()], env: { LOG_LEVEL: 'silent' } });
  });
  after(() => t.close());

  it('are on JSON answers and on problem+json errors alike', async () => {
    for (const res of [
      await t.inject({ method: 'GET', url: '/healthz' }),
      await t.inject({ method: 'POST', url: SEARCH, payload: {} }),
      await t.inject({ method: 'GET', url: '/nowhere' }),
    ]) {
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.match(String(res.headers['strict-transport-security']), /max-age=\d+/);
      assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
      assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.ok(res.headers['x-frame-options']);
      assert.equal(res.headers['x-powered-by'], undefined);
    }
  });

  it('gives /docs its own self-only policy (tested in test/docs/docs-page.test.ts)', async () => {
    const res = await t.inject({ method: 'GET', url: '/docs/' });
    assert.equal(res.statusCode, 200);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'(;|$)/, 'its scripts run from this origin, none inline');
    assert.match(csp, /connect-src 'self'/, 'it fetches the OpenAPI document');
    assert.doesNotMatch(csp, /https?:/, 'no other host');
  });
});

describe('GET /metrics', () => {
  let t: TestApp;
  let hotelId: string;
  before(async () => {
    const hotel = makeHotel();
    hotelId = hotel.id;
    t = await startTestApp({ hotels: [hotel], env: { LOG_LEVEL: 'silent' } });
  });
  after(() => t.close());

  const scrape = async () => {
    const res = await t.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    return res.body;
  };
  const value = (body: string, series: string) => {
    const line = body.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };

  it('exposes request rate and latency per route pattern, never the raw URL', async () => {
    const { id, accessToken } = await book(t, hotelId);
    await t.inject({
      method: 'POST',
      url: `/api/v1/booking/reservations/${id}/cancel`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const body = await scrape();
    assert.match(
      body,
      /^innkeep_http_requests_total\{method="POST",route="\/api\/v1\/booking\/reservations\/:reservation\/cancel",status_code="200"\} 1/m,
    );
    assert.match(
      body,
      /^innkeep_http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/api\/v1\/booking\/quote",status_code="201"\}/m,
    );
    assert.ok(!body.includes(id), 'no reservation code in any label');
    assert.ok(!body.includes(accessToken), 'no token in any label');
    await t.inject({ method: 'GET', url: `/totally/unknown/${'x'.repeat(20)}` });
    assert.match(await scrape(), /route="unmatched"/);
  });

  it('counts reservations created and cancelled (a repeated cancel once), and names check-ins completed', async () => {
    const before = await scrape();
    const created = `innkeep_reservations_created_total{hotel="${hotelId}"}`;
    const cancelled = `innkeep_reservations_cancelled_total{hotel="${hotelId}"}`;
    const { id, accessToken } = await book(t, hotelId);
    for (let i = 0; i < 2; i++) {
      const res = await t.inject({
        method: 'POST',
        url: `/api/v1/booking/reservations/${id}/cancel`,
        headers: { authorization: `Bearer ${accessToken}` },
      });
      assert.equal(res.statusCode, 200);
    }
    const body = await scrape();
    assert.equal(value(body, created), value(before, created) + 1);
    assert.equal(value(body, cancelled), value(before, cancelled) + 1);
    assert.match(body, /# TYPE innkeep_checkins_completed_total counter/);
  });

  it('exposes database pool usage and process metrics', async () => {
    const body = await scrape();
    for (const state of ['total', 'idle']) {
      assert.match(body, new RegExp(`^innkeep_db_pool_connections\\{state="${state}"\\} \\d+$`, 'm'));
    }
    // Requests waiting for a connection are not connections: a metric of their own.
    assert.doesNotMatch(body, /innkeep_db_pool_connections\{state="waiting"\}/);
    assert.match(body, /^innkeep_db_pool_waiting_requests \d+$/m);
    assert.doesNotMatch(body, /^http_/m, 'every request metric carries the service prefix');
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      assert.match(body, new RegExp(`^${name}`, 'm'), name);
    }
  });

  it('is kept out of the OpenAPI document', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    assert.equal(doc.paths['/metrics'], undefined);
  });
});

describe('load shedding', () => {
  it('queues while the expected wait for a connection is short, and sheds (503, Retry-After) once it is not', async () => {
    // 10 connections each held 20 ms: 10 requests queued is 20 ms of waiting, 1,000 is 2 s.
    const stats = { total: 10, idle: 0, waiting: 0, max: 10, meanHoldMs: 20, checkouts: 0 };
    const app = Fastify();
    await app.register(errorHandler);
    await app.register(loadShedding, {
      db: { poolStats: () => stats },
      maxEventLoopDelayMs: 0,
      maxDbWaitMs: 1000,
    });
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.post('/work', async () => ({ done: true }));
    try {
      assert.equal((await app.inject({ method: 'POST', url: '/work' })).statusCode, 200);
      // (Shed first: an admitted request that was expected to wait calibrates the estimate, and
      // these answer at once, whatever the fictitious queue says.)
      stats.waiting = 600; // 1.2 s: over the limit
      const shed = await app.inject({ method: 'POST', url: '/work' });
      assert.equal(shed.statusCode, 503);
      assert.match(String(shed.headers['content-type']), /^application\/problem\+json/);
      assert.equal(shed.json().code, 'service_unavailable');
      assert.ok(Number(shed.headers['retry-after']) > 0);
      stats.waiting = 20;
      stats.meanHoldMs = 1000; // a short queue behind slow transactions is a long wait: shed
      assert.equal((await app.inject({ method: 'POST', url: '/work' })).statusCode, 503);
      stats.meanHoldMs = 20;
      assert.equal(
        (await app.inject({ method: 'GET', url: '/healthz' })).statusCode,
        200,
        'liveness is never shed',
      );
      stats.waiting = 400; // a long queue that drains in 0.8 s: served
      assert.equal((await app.inject({ method: 'POST', url: '/work' })).statusCode, 200);
      stats.waiting = 0;
      assert.equal((await app.inject({ method: 'POST', url: '/work' })).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  it('answers 503 service_unavailable with Retry-After while the event loop lags, sample after sample', async (ctx) => {
    const t = await startTestApp(ctx, {
      hotels: [makeHotel()],
      env: { LOG_LEVEL: 'silent', LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '20' },
    });
    await t.app.ready();
    assert.equal(t.app.loadStatus().overloaded, false, 'starting up is not overload');
    assert.notEqual((await t.inject({ method: 'POST', url: SEARCH, payload: {} })).statusCode, 503);
    // Keep the loop late in slices until the sampler has seen it late twice in a row (bounded).
    for (let i = 0; i < 100 && !t.app.loadStatus().overloaded; i++) {
      const until = Date.now() + 150;
      while (Date.now() < until) {}
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(t.app.loadStatus().overloaded, 'the sampler saw the lag');
    const shed = await t.inject({ method: 'POST', url: SEARCH, payload: {} });
    assert.equal(shed.statusCode, 503);
    assert.match(String(shed.headers['content-type']), /^application\/problem\+json/);
    assert.equal(shed.json().code, 'service_unavailable');
    assert.ok(Number(shed.headers['retry-after']) > 0);
    assert.equal(
      (await t.inject({ method: 'GET', url: '/healthz' })).statusCode,
      200,
      'liveness is never shed',
    );
  });

  it('serves a burst the database drains quickly, with the default settings, instead of shedding it', async (ctx) => {
    // 10 connections; the old rule shed at 100 requests waiting for one, whatever the wait.
    const t = await startTestApp(ctx, {
      hotels: [burstHotel],
      env: { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', LOAD_SHED_MAX_WAIT_MS: '', DB_POOL_SIZE: '10' },
    });
    const quote = (i: number) =>
      t.inject({
        method: 'POST',
        url: '/api/v1/booking/quote',
        payload: {
          hotelId: burstHotel.id,
          roomTypeId: 'double',
          ratePlanId: 'flex',
          checkIn: daysFromNow(10 + (i % 30)),
          checkOut: daysFromNow(12 + (i % 30)),
          adults: 2,
        },
      });
    const warm = await quote(0);
    assert.equal(warm.statusCode, 201, warm.body);
    // A first wave fills the pool's queue; the second arrives while 100 or more are waiting.
    const first = Array.from({ length: 200 }, (_, i) => quote(i));
    if (t.db.kind === 'postgres') {
      let waiting = 0;
      for (let i = 0; i < 100_000 && waiting < 100; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        waiting = t.db.poolStats().waiting;
      }
      assert.ok(waiting >= 100, `the queue reached ${waiting}`);
    }
    const second = Array.from({ length: 100 }, (_, i) => quote(200 + i));
    const statuses = (await Promise.all([...first, ...second])).map((r) => r.statusCode);
    const counts: Record<number, number> = {};
    for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
    assert.deepEqual(counts, { 201: 300 });
  });
});
