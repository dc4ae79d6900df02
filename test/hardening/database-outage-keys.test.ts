/**
 * Issue 23.2 and 23.3 on either engine: a request that fails because the database went away
 * answers 503 `database_unavailable` with Retry-After, and gives its Idempotency-Key back as soon
 * as the database is back, so the client's retry runs instead of answering 409
 * idempotency_in_progress until the claim's lock lapses. The outage is injected at the engine's
 * seam (test/helpers/faults.ts); test/postgres/refused-connections.test.ts plays a real one.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertProblem, quoteOk, reserve, search, stay } from '../booking/helpers.ts';
import { outageDatabase } from '../helpers/faults.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

describe('the database going away under a request with an Idempotency-Key', () => {
  const outage = outageDatabase();
  const hotel = makeHotel();
  let t: TestApp;
  before(async () => {
    t = await startTestApp({
      hotels: [hotel],
      env: { WEBHOOK_WORKER: 'false', RATE_LIMIT_PER_MINUTE: '0' },
      wrapDb: outage.wrap,
    });
  });
  after(async () => {
    outage.down = false;
    await t.close();
  });

  const stayBody = (fromToday: number) => ({
    hotelId: hotel.id,
    ...stay(t, fromToday, 2),
    adults: 2,
    roomTypeId: 'double',
    ratePlanId: 'flex',
  });

  it('answers 503 database_unavailable with Retry-After while the database is away', async () => {
    outage.down = true;
    try {
      const refused = await search(t, { hotelId: hotel.id, ...stay(t, 20, 2), adults: 2 });
      assertProblem(refused, 503, 'database_unavailable');
      assert.ok(Number(refused.headers['retry-after']) >= 1, 'Retry-After');
    } finally {
      outage.down = false;
    }
  });

  it('frees the key of a write that failed during the outage once the database is back', async () => {
    const quote = await quoteOk(t, stayBody(30));
    const key = { 'idempotency-key': `outage-${randomUUID()}` };
    // The key is claimed, then the database goes away before the write's transaction begins.
    const held = outage.holdNext();
    const pending = reserve(t, quote.id, {}, key);
    await held.reached;
    outage.down = true;
    held.release();
    const failed = await pending;
    assertProblem(failed, 503, 'database_unavailable');
    assert.ok(failed.headers['retry-after']);

    outage.down = false;
    const retried = await reserve(t, quote.id, {}, key);
    assert.equal(retried.statusCode, 201, retried.body);
    assert.equal(retried.headers['idempotent-replayed'], undefined);
    const replayed = await reserve(t, quote.id, {}, key);
    assert.equal(replayed.statusCode, 201, replayed.body);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(replayed.json().id, retried.json().id);
  });
});
