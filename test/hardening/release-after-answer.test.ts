/**
 * Issue 32.13: a request that fails with a 5xx gives its Idempotency-Key back, but its answer must
 * not wait for that release. With the network to the database silent, the release waits out the
 * pool's whole connection timeout: a booking answered its 503 at 25 s instead of 20 s. Here the
 * release is held at the engine's seam until the test lets it go: the 503 must arrive while the
 * release is still held, and a retry with the same key must still find the key free (it waits for
 * the release under way on this process instead of answering 409 idempotency_in_progress).
 * Either engine (`npm test`, `npm run test:pg`).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/infra/db/database.ts';
import { assertProblem, quoteOk, reserve, stay } from '../booking/helpers.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

// Of either table: a booking's key is its hotel's (hotel_idempotency_keys, issue 37).
const RELEASE =
  /^\s*DELETE FROM (hotel_)?idempotency_keys WHERE (hotel_id = \$2 AND )?scope_hash = \$1 AND state = 'in_progress'/;

/** The real engine, where the next transaction fails as a lost connection, and key releases can be held. */
function slowReleaseDatabase() {
  let failNextTransaction = false;
  let gate: { reached: () => void; released: Promise<void> } | null = null;
  const wrap = (db: Database): Database => ({
    ...db,
    async query<T>(sql: string, params?: readonly unknown[]) {
      const held = RELEASE.test(sql) ? gate : null;
      if (held) {
        gate = null;
        held.reached();
        await held.released;
      }
      return db.query<T>(sql, params);
    },
    async transaction(fn) {
      if (failNextTransaction) {
        failNextTransaction = false;
        throw Object.assign(new Error('injected outage: connection lost'), { code: '08006' });
      }
      return db.transaction(fn);
    },
  });
  return {
    wrap,
    failNextTransaction() {
      failNextTransaction = true;
    },
    /** Holds the next key release: `reached` resolves when it starts, `release` lets it run. */
    holdNextRelease() {
      let reached = () => {};
      let release = () => {};
      const arrived = new Promise<void>((resolve) => {
        reached = resolve;
      });
      gate = { reached, released: new Promise<void>((resolve) => (release = resolve)) };
      return { reached: arrived, release };
    },
  };
}

describe('a failed request with an Idempotency-Key answers before its key is released', () => {
  const faults = slowReleaseDatabase();
  const hotel = makeHotel();
  let t: TestApp;
  before(async () => {
    t = await startTestApp({
      hotels: [hotel],
      env: { WEBHOOK_WORKER: 'false', RATE_LIMIT_PER_MINUTE: '0' },
      wrapDb: faults.wrap,
    });
  });
  after(() => t.close());

  it('sends the 503 while the release is still under way, and the retry finds the key free', async () => {
    const quote = await quoteOk(t, {
      hotelId: hotel.id,
      ...stay(t, 30, 2),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const key = { 'idempotency-key': `release-${randomUUID()}` };
    const release = faults.holdNextRelease();
    faults.failNextTransaction();
    const answered = reserve(t, quote.id, {}, key);
    await release.reached;
    let released = false;
    try {
      // Before the fix the answer waited for the release, which the test holds: only the
      // fallback below (far longer than an answer takes) ended the wait.
      let timer: NodeJS.Timeout | undefined;
      const first = await Promise.race([
        answered,
        new Promise<'still waiting'>((resolve) => {
          timer = setTimeout(() => resolve('still waiting'), 10_000);
        }),
      ]);
      clearTimeout(timer);
      assert.notEqual(first, 'still waiting', 'the 503 waited for the key to be released');
      if (first === 'still waiting') return;
      assertProblem(first, 503, 'database_unavailable');
      assert.ok(Number(first.headers['retry-after']) >= 1, 'Retry-After');
      // The retry starts while the release is held: it waits for it, then runs as a first request.
      const retry = reserve(t, quote.id, {}, key);
      release.release();
      released = true;
      const retried = await retry;
      assert.equal(retried.statusCode, 201, retried.body);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
    } finally {
      if (!released) release.release();
      await answered;
    }
  });
});
