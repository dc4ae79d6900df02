/**
 * A database outage: the service keeps answering (503 problem+json, fast), /readyz says not
 * ready, nothing crashes or leaks, and everything recovers by itself when the database is back.
 * A TCP proxy between the service and PostgreSQL plays the outage.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { loadConfig } from '../../src/config.ts';
import { openPostgresDatabase } from '../../src/infra/db/postgres.ts';
import { createLogger } from '../../src/infra/logger.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { nodeScript } from '../helpers/node-command.ts';
import { sharedSchemaCompilers } from '../helpers/schema-compilers.ts';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';
import {
  DATABASE_URL,
  databaseUrlVia,
  deadPort,
  eventually,
  needsPostgres,
  newEncryptionKey,
  run,
  sleep,
  TcpProxy,
} from './support.ts';

const BOOKING = '/api/v1/booking';
const GUEST = { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' };
const POOL_SIZE = 4;

describe('PostgreSQL outage', () => {
  let proxy: TcpProxy;
  let runtime: Runtime;
  let db: ReturnType<typeof openPostgresDatabase>;
  const hotel = makeHotel();
  const stay = { hotelId: hotel.id, checkIn: daysFromNow(30), checkOut: daysFromNow(32), adults: 2 };

  before(async () => {
    if (needsPostgres) return;
    proxy = await TcpProxy.to(DATABASE_URL as string);
    const url = databaseUrlVia(proxy.port);
    const config = loadConfig({
      DATABASE_URL: url,
      DATA_ENCRYPTION_KEY: newEncryptionKey(),
      PUBLIC_BASE_URL: 'https://innkeep.test',
      DB_POOL_SIZE: String(POOL_SIZE),
      RATE_LIMIT_PER_MINUTE: '0',
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      LOG_LEVEL: 'silent',
    });
    db = openPostgresDatabase({ url, poolSize: POOL_SIZE, connectionTimeoutMs: 2_000 });
    runtime = await createRuntime(config, createLogger('silent'), {
      db,
      hotels: parseCatalog({ hotels: [hotel] }).hotels,
      schemaCompilers: sharedSchemaCompilers,
    });
  });
  after(async () => {
    await runtime?.close();
    await db?.close();
    await proxy?.cut();
  });

  const request = (
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => runtime.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const quote = (headers: Record<string, string> = {}) =>
    request('POST', `${BOOKING}/quote`, { ...stay, roomTypeId: 'double', ratePlanId: 'flex' }, headers);
  const reserve = (quoteId: string) => request('POST', `${BOOKING}/reservations`, { quoteId, guest: GUEST });

  function assertUnavailable(response: Awaited<ReturnType<typeof request>>, what: string) {
    assert.equal(response.statusCode, 503, `${what}: ${response.body}`);
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/, what);
    assert.equal(response.json().code, 'database_unavailable', what);
  }

  test('a connection lost in the middle of a transaction fails that transaction, not the process', {
    skip: needsPostgres,
  }, async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('SELECT 1');
        await proxy.cut();
        // Let the closed socket reach the driver while the client is checked out and idle.
        await sleep(100);
        await tx.query('SELECT 1');
      }),
    );
    assert.equal(db.poolStats().waiting, 0);
    await proxy.restore();
    await eventually('the database to answer again', async () =>
      (await request('GET', '/readyz')).statusCode === 200 ? true : undefined,
    );
  });

  test('503 problem+json while the database is away; recovery without a restart; no pool leak', {
    skip: needsPostgres,
  }, async () => {
    assert.equal((await request('GET', '/readyz')).statusCode, 200);
    const before = await quote();
    assert.equal(before.statusCode, 201, before.body);

    const outageKey = `outage-${randomUUID()}`;
    await proxy.cut();
    assertUnavailable(await request('GET', '/readyz'), 'readyz');
    assert.equal(
      (await request('GET', '/healthz')).statusCode,
      200,
      'liveness does not depend on the database',
    );
    assertUnavailable(await request('POST', `${BOOKING}/availability/search`, stay), 'search');
    assertUnavailable(await quote({ 'idempotency-key': outageKey }), 'quote with an Idempotency-Key');
    assertUnavailable(await reserve(before.json().id), 'reservation');
    // Many at once: all fail fast, none waits forever for a connection.
    const burst = await Promise.all(
      Array.from({ length: 3 * POOL_SIZE }, () => request('POST', `${BOOKING}/availability/search`, stay)),
    );
    for (const response of burst) assertUnavailable(response, 'search during the outage');
    assert.equal(db.poolStats().waiting, 0);

    await proxy.restore();
    await eventually('/readyz to recover', async () =>
      (await request('GET', '/readyz')).statusCode === 200 ? true : undefined,
    );
    // Nothing happened during the outage: the key was never stored, the quote was never used.
    const retried = await quote({ 'idempotency-key': outageKey });
    assert.equal(retried.statusCode, 201, retried.body);
    assert.equal(retried.headers['idempotent-replayed'], undefined);
    const reserved = await reserve(before.json().id);
    assert.equal(reserved.statusCode, 201, reserved.body);

    const load = await Promise.all(
      Array.from({ length: 5 * POOL_SIZE }, () => request('POST', `${BOOKING}/availability/search`, stay)),
    );
    for (const response of load) assert.equal(response.statusCode, 200, response.body);
    // Background work (the webhook worker's poll, the search view's reload after the outage) may
    // hold a connection for a moment: a leaked one never comes back, a busy one within a second.
    let stats = db.poolStats();
    for (let i = 0; i < 40 && stats.idle !== stats.total; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      stats = db.poolStats();
    }
    assert.ok(stats.total <= POOL_SIZE, `pool grew to ${stats.total}`);
    assert.equal(stats.waiting, 0);
    assert.equal(stats.idle, stats.total, 'every connection went back to the pool');
  });
});

describe('PostgreSQL silent (network partition)', () => {
  test('queries give up instead of hanging: 503 for the request, a failed transaction, and recovery', {
    skip: needsPostgres,
  }, async () => {
    const proxy = await TcpProxy.to(DATABASE_URL as string);
    const url = databaseUrlVia(proxy.port);
    // Short server-side timeouts so the client-side backstop (statement timeout + 5 s) comes soon.
    const db = openPostgresDatabase({
      url,
      poolSize: 2,
      connectionTimeoutMs: 1_000,
      statementTimeoutMs: 500,
    });
    const hotel = makeHotel();
    const runtime = await createRuntime(
      loadConfig({
        DATABASE_URL: url,
        DATA_ENCRYPTION_KEY: newEncryptionKey(),
        PUBLIC_BASE_URL: 'https://innkeep.test',
        RATE_LIMIT_PER_MINUTE: '0',
      }),
      createLogger('silent'),
      { db, hotels: parseCatalog({ hotels: [hotel] }).hotels },
    );
    try {
      const search = () =>
        runtime.app.inject({
          method: 'POST',
          url: `${BOOKING}/availability/search`,
          payload: { hotelId: hotel.id, checkIn: daysFromNow(30), checkOut: daysFromNow(31), adults: 1 },
        });
      assert.equal((await search()).statusCode, 200);
      proxy.freeze();
      const [during, transaction, ready] = await Promise.all([
        search(),
        db
          .transaction((tx) => tx.query('SELECT 1'))
          .then(
            () => 'committed',
            () => 'failed',
          ),
        runtime.app.inject({ method: 'GET', url: '/readyz' }),
      ]);
      assert.equal(during.statusCode, 503, during.body);
      assert.equal(during.json().code, 'database_unavailable');
      assert.equal(transaction, 'failed');
      assert.equal(ready.statusCode, 503);

      await proxy.cut();
      await proxy.restore();
      await eventually('the service to recover', async () =>
        (await search()).statusCode === 200 ? true : undefined,
      );
      const stats = db.poolStats();
      assert.ok(stats.total <= 2);
      assert.equal(stats.waiting, 0);
    } finally {
      await runtime.close();
      await db.close();
      await proxy.cut();
    }
  });
});

describe('PostgreSQL not reachable at start', () => {
  test('the server exits non-zero with a clear log instead of hanging', { skip: needsPostgres }, async () => {
    const result = await run(nodeScript('src/server.ts'), {
      DATABASE_URL: databaseUrlVia(await deadPort()),
      DATA_ENCRYPTION_KEY: newEncryptionKey(),
      PUBLIC_BASE_URL: 'https://innkeep.test',
      PORT: '0',
    });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /"msg":"start-up failed"/);
    assert.match(result.stdout, /ECONNREFUSED/);
    assert.doesNotMatch(result.stdout, /listening on/);
  });
});
