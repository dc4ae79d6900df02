/**
 * The fuzz harness's own check: a rejected request that changes any table fails the run. The
 * harness skips the fingerprint when no transaction committed since it was taken; these tests
 * make a rejected request commit a change, during the request and after its response, and expect
 * the run to fail either way (and to pass when nothing changes).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { type FuzzRequest, fuzzEndpoint, newStats } from './support/fuzz-harness.ts';

/** A quote request the service refuses with 400 (no dates). */
const refused = (hotelId: string): FuzzRequest => ({
  kind: 'near-valid',
  method: 'POST',
  url: '/api/v1/booking/quote',
  headers: {},
  payload: { hotelId, adults: 1, roomTypeId: 'double', ratePlanId: 'flex' },
  remoteAddress: '127.0.0.1',
});

/** fast-check's failure, caused by the harness's assertion. */
const changedState = (error: Error) => /a rejected request changed state/.test(String(error.cause));

describe('fuzz harness: a rejected request may change nothing', () => {
  let t: TestApp;
  const hotel = makeHotel();
  before(async () => {
    t = await startTestApp({ hotels: [hotel] });
    await t.db.query('CREATE TABLE fuzz_probe (n int)');
  });
  after(async () => {
    await t.db.query('DROP TABLE fuzz_probe');
    await t.close();
  });

  /** `t`, with a write made around each request by `sideEffect`. */
  const withSideEffect = (sideEffect: (inject: () => Promise<unknown>) => Promise<unknown>): TestApp => ({
    ...t,
    inject: (options) => sideEffect(() => t.inject(options)) as never,
  });

  it('passes when the refused requests change nothing', async () => {
    await fuzzEndpoint(t, fc.constant(refused(hotel.id)), 5, newStats(), 1);
  });

  it('fails when a refused request commits a change before it answers', async () => {
    const app = withSideEffect(async (inject) => {
      await t.db.query('INSERT INTO fuzz_probe VALUES (1)');
      return inject();
    });
    await assert.rejects(fuzzEndpoint(app, fc.constant(refused(hotel.id)), 5, newStats(), 1), changedState);
  });

  it('fails when a refused request commits a change after it has answered', async () => {
    let late: Promise<unknown> = Promise.resolve();
    const app = withSideEffect(async (inject) => {
      const res = await inject();
      late = t.db.query('INSERT INTO fuzz_probe VALUES (2)');
      return res;
    });
    await assert.rejects(fuzzEndpoint(app, fc.constant(refused(hotel.id)), 5, newStats(), 1), changedState);
    await late;
  });
});
