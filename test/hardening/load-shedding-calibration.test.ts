/**
 * Load shedding's expected wait (issue 23.5), deterministically: the pool's figures are given, the
 * requests in flight are held open by the test, and nothing depends on timing. A burst the pool
 * drains within LOAD_SHED_MAX_WAIT_MS is served in full; shedding stops as soon as the requests
 * of the pressure have drained; the estimate follows what admitted requests really took; the
 * expected and actual waits are on /metrics.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { DbWaitEstimator } from '../../src/infra/http/db-wait-estimator.ts';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { loadShedding } from '../../src/infra/http/load-shedding.ts';
import { makeHotel, startTestApp } from '../helpers/test-app.ts';

/** An app whose `/work` requests stay in flight until `release()`, each making `checkouts`. */
async function shedder(maxDbWaitMs: number, pool: { max: number; meanHoldMs: number }, checkouts = 3) {
  const stats = { total: pool.max, idle: 0, waiting: 0, checkouts: 0, ...pool };
  let open: () => void = () => {};
  let gate = Promise.resolve();
  const app = Fastify();
  await app.register(errorHandler);
  await app.register(loadShedding, {
    db: { poolStats: () => stats },
    maxEventLoopDelayMs: 0,
    maxDbWaitMs,
    useSampleMs: 5,
  });
  app.post('/work', async () => {
    await gate;
    stats.checkouts += checkouts;
    return { done: true };
  });
  const work = () => app.inject({ method: 'POST', url: '/work' });
  return {
    app,
    stats,
    work,
    /** Requests from now on stay in flight until `release`. */
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release: () => open(),
    /** Served one at a time (nothing queued: no calibration) until checkouts per request are measured. */
    async learnCheckouts() {
      // Connections held for no time meanwhile: these requests expect no wait and calibrate nothing.
      const { meanHoldMs } = stats;
      stats.meanHoldMs = 0.01;
      for (let i = 0; i < 40 && app.loadStatus().checkoutsPerRequest < checkouts - 0.1; i++) {
        for (let j = 0; j < 25; j++) assert.equal((await work()).statusCode, 200);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(app.loadStatus().checkoutsPerRequest >= checkouts - 0.1, 'checkouts per request measured');
      assert.equal(app.loadStatus().calibration, 1);
      stats.meanHoldMs = meanHoldMs;
    },
  };
}

describe('load shedding: the expected wait, calibrated', () => {
  it('serves in full a burst the pool drains within the limit (a booking makes three checkouts)', async () => {
    // 10 connections held 10 ms each: 1,000 bookings of 3 checkouts are 3 s of work, under 5 s.
    const s = await shedder(5_000, { max: 10, meanHoldMs: 10 });
    try {
      await s.learnCheckouts();
      s.hold();
      const burst = Array.from({ length: 1_000 }, () => s.work());
      // Every request of the burst has passed admission (or been shed) before any is answered.
      await new Promise((resolve) => setImmediate(resolve));
      const expected = s.app.loadStatus().dbWaitMs;
      s.release();
      const statuses = (await Promise.all(burst)).map((r) => r.statusCode);
      assert.equal(statuses.filter((c) => c === 503).length, 0, `shed; the last expected ${expected} ms`);
      assert.ok(expected > 2_900 && expected < 3_100, `the last expected ${expected} ms, 3,000 ms of work`);
    } finally {
      await s.app.close();
    }
  });

  it('stops shedding as soon as the requests of the pressure have drained, however slow the pool was', async () => {
    // Two connections held 2 s each (transactions queued behind a lock): the mean stays that high
    // after the lock is gone, since no new request gets to make a checkout that would lower it.
    const s = await shedder(500, { max: 2, meanHoldMs: 2_000 });
    try {
      s.hold();
      const pressure = Array.from({ length: 30 }, () => s.work());
      await new Promise((resolve) => setImmediate(resolve));
      const shed = await s.work();
      assert.equal(shed.statusCode, 503, shed.body);
      assert.ok(Number(shed.headers['retry-after']) >= 1);
      s.release(); // the lock is gone: the requests in flight finish
      await Promise.all(pressure);
      const after = await s.work();
      assert.equal(after.statusCode, 200, `shed after the pressure ended: ${after.body}`);
    } finally {
      await s.app.close();
    }
  });

  it('calibrates the estimate by what admitted requests took', () => {
    const estimator = new DbWaitEstimator();
    const pool = { waiting: 0, max: 10, meanHoldMs: 10 };
    assert.equal(estimator.raw(pool, 0), 0, 'nothing ahead: no wait');
    const raw = estimator.raw(pool, 300); // (300 + 1) checkouts × 10 ms ÷ 10
    assert.equal(raw, 301);
    for (let i = 0; i < 60; i++) estimator.observe(raw, raw / 3);
    assert.ok(Math.abs(estimator.factor - 1 / 3) < 0.01, `factor ${estimator.factor}`);
    assert.ok(Math.abs(estimator.expected(pool, 300).expectedMs - raw / 3) < 5);
    estimator.observe(10, 10_000); // too short an estimate to say anything
    assert.ok(Math.abs(estimator.factor - 1 / 3) < 0.01);
    for (let i = 0; i < 200; i++) estimator.observe(raw, raw * 1_000);
    assert.ok(estimator.factor <= 1, 'never above 1: slower than estimated is the CPU, not the queue');
  });

  it('records expected and actual waits on /metrics', async (ctx) => {
    const t = await startTestApp(ctx, { hotels: [makeHotel()], env: { LOAD_SHED_MAX_WAIT_MS: '5000' } });
    await t.inject({ method: 'GET', url: '/api/v1/booking/hotels' });
    const body = (await t.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(body, /^innkeep_db_wait_expected_seconds_count\{outcome="admitted"\} [1-9]/m);
    assert.match(body, /^innkeep_db_wait_actual_seconds_count [1-9]/m);
    assert.match(body, /^innkeep_db_wait_calibration_ratio 1$/m);
  });
});
