/**
 * Issue 23.2 and 23.3 on a real PostgreSQL: the database stops accepting connections
 * (`ALTER DATABASE … ALLOW_CONNECTIONS false`, SQLSTATE 55000 on every new connection) and the
 * service's connections are terminated. Every request answers 503 `database_unavailable` with
 * Retry-After (not 500), and a key claimed just before the outage is free once it ends.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import { assertProblem, quoteOk, requestQuote, reserve, search, stay } from '../booking/helpers.ts';
import { pausableDatabase } from '../helpers/faults.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { DATABASE_URL, eventually, needsPostgres, sleep, sqlClient } from './support.ts';

describe('PostgreSQL refusing connections', { skip: needsPostgres }, () => {
  const pause = pausableDatabase();
  const hotel = makeHotel();
  let t: TestApp;
  let admin: pg.Client;
  let database: string;
  before(async () => {
    t = await startTestApp({
      hotels: [hotel],
      env: { WEBHOOK_WORKER: 'false', RATE_LIMIT_PER_MINUTE: '0', DB_POOL_SIZE: '4' },
      wrapDb: pause.wrap,
    });
    // On the server's maintenance database: a database cannot refuse connections from inside.
    const url = new URL(DATABASE_URL as string);
    database = decodeURIComponent(url.pathname.slice(1));
    url.pathname = '/postgres';
    admin = await sqlClient(url.toString());
  });
  after(async () => {
    await allowConnections(true).catch(() => {});
    await admin?.end();
    await t?.close();
  });

  async function allowConnections(allow: boolean) {
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS ${allow}`);
    if (!allow) {
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      // The pool hears of its terminated connections (and drops them) on their sockets.
      await sleep(200);
    }
  }

  const body = (fromToday: number) => ({
    hotelId: hotel.id,
    ...stay(t, fromToday, 2),
    adults: 2,
    roomTypeId: 'double',
    ratePlanId: 'flex',
  });

  it('answers 503 database_unavailable with Retry-After, and frees keys once connections are allowed', async () => {
    const quote = await quoteOk(t, body(30));
    const held = pause.hold('before-begin');
    const reservationKey = { 'idempotency-key': `refused-${randomUUID()}` };
    const pending = reserve(t, quote.id, {}, reservationKey);
    await held.reached; // the key is claimed, the write has not begun
    const started = Date.now();
    await allowConnections(false);
    const keys = Array.from({ length: 10 }, () => ({ 'idempotency-key': `refused-${randomUUID()}` }));
    try {
      held.release();
      const refused = [
        await pending,
        await search(t, { hotelId: hotel.id, ...stay(t, 20, 2), adults: 2 }),
        ...(await Promise.all(keys.map((key, i) => requestQuote(t, body(40 + i), key)))),
        await t.inject({ method: 'GET', url: '/readyz' }),
      ];
      for (const response of refused) {
        assertProblem(response, 503, 'database_unavailable');
        assert.ok(Number(response.headers['retry-after']) >= 1, `Retry-After: ${response.body}`);
      }
    } finally {
      await allowConnections(true);
    }
    const outageMs = Date.now() - started;

    // The retries run as first requests: no 409 idempotency_in_progress for the lock's minute.
    const retried = await eventually('the reservation retry to get through', async () => {
      const response = await reserve(t, quote.id, {}, reservationKey);
      return response.statusCode === 503 ? undefined : response;
    });
    assert.equal(retried.statusCode, 201, retried.body);
    for (const [i, key] of keys.entries()) {
      const response = await requestQuote(t, body(40 + i), key);
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(response.headers['idempotent-replayed'], undefined);
    }
    assert.ok(
      Date.now() - started < 10_000,
      `recovered ${Date.now() - started} ms after the outage began (outage ${outageMs} ms)`,
    );
  });
});
