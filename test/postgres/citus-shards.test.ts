/**
 * Citus only (CITUS_URL, issue 37): no request of the public booking and check-in flow sends a
 * statement that touches more than one shard. Citus counts the statements it executes, per database,
 * as single-shard or multi-shard (`citus_stat_counters`, with `citus.enable_stat_counters` on); the
 * flow runs with the background workers off or asleep, and the multi-shard count must not move. A
 * statement known to ask every shard is run at the end, so the count is shown to be counting.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { BOOKING, bearer, cancel, GUEST, post, requestQuote, search, stay } from '../booking/helpers.ts';
import {
  bookStay,
  GUEST_DETAILS,
  getSession,
  identityDocument,
  openSession,
  SIGNATURE,
  startCheckinApp,
  stepOk,
} from '../checkin/helpers.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { needsPostgres, sqlClient } from './support.ts';

const HOUR = String(3_600_000);

describe('the public flow on Citus, shard by shard', { skip: needsPostgres }, () => {
  let sql: pg.Client;
  let citus = false;
  let t: TestApp;
  let hotel: HotelDef;
  before(async () => {
    sql = await sqlClient();
    citus = (await sql.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`)).rows.length > 0;
    if (!citus) return;
    const { rows } = await sql.query<{ db: string }>('SELECT current_database() AS db');
    // For the app's connections, opened after this: Citus counts only where it is on. The log
    // level puts each multi-shard statement in the coordinator's log, to find one when this fails.
    await sql.query(`ALTER DATABASE "${rows[0]?.db}" SET citus.enable_stat_counters = on`);
    await sql.query(`ALTER DATABASE "${rows[0]?.db}" SET citus.multi_task_query_log_level = log`);
    ({ t, hotel } = await startCheckinApp({
      env: {
        WEBHOOK_WORKER: 'false',
        MAIL_WORKER: 'false',
        BALANCE_POLL_INTERVAL_MS: HOUR,
        PAYMENT_WORKER_INTERVAL_MS: HOUR,
        PURGE_INTERVAL_SECONDS: '604800',
        ICAL_POLL_SECONDS: '604800',
      },
    }));
  });
  after(async () => {
    await t?.close();
    await sql?.end();
  });

  /** The database's statements so far, by how many shards each touched. */
  const counters = async () => {
    const { rows } = await sql.query<{ single: string; multi: string }>(
      `SELECT query_execution_single_shard::text AS single, query_execution_multi_shard::text AS multi
         FROM citus_stat_counters WHERE name = current_database()`,
    );
    return { single: Number(rows[0]?.single ?? 0), multi: Number(rows[0]?.multi ?? 0) };
  };

  it('searches, quotes, books, opens check-in and takes every step with one-shard statements only', async (ctx) => {
    if (!citus) return ctx.skip('not a Citus cluster (CITUS_URL)');
    // Start-up's own work (the catalogue's nights for every hotel, the purge's first pass, each
    // worker's first look for due work, asking every shard by design) is over once the counts rest.
    let before = await counters();
    for (let quiet = 0, tries = 0; quiet < 4 && tries < 60; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = await counters();
      quiet = now.single === before.single && now.multi === before.multi ? quiet + 1 : 0;
      before = now;
    }
    const perRequest: string[] = [];
    const step = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
      const at = await counters();
      const result = await work();
      const now = await counters();
      if (now.multi !== at.multi) perRequest.push(`${what}: ${now.multi - at.multi}`);
      return result;
    };

    const dates = stay(t, 5, 3, hotel.timezone);
    const found = await step('search', () => search(t, { hotelId: hotel.id, ...dates, adults: 1 }));
    assert.equal(found.statusCode, 200, found.body);
    const quoted = await step('quote', () =>
      requestQuote(t, { hotelId: hotel.id, ...dates, adults: 1, roomTypeId: 'double', ratePlanId: 'flex' }),
    );
    assert.equal(quoted.statusCode, 201, quoted.body);
    const reserved = await step('book with an Idempotency-Key', () =>
      post(
        t,
        'reservations',
        { quoteId: quoted.json().id, guest: GUEST },
        { 'idempotency-key': 'citus-flow-1' },
      ),
    );
    assert.equal(reserved.statusCode, 201, reserved.body);
    const booked = {
      code: reserved.json().id as string,
      token: reserved.json().accessToken as string,
      ...dates,
    };
    const shown = await step('read the reservation', () =>
      t.inject({
        method: 'GET',
        url: `${BOOKING}/reservations/${booked.code}`,
        headers: bearer(booked.token),
      }),
    );
    assert.equal(shown.statusCode, 200, shown.body);
    const opened = await step('open check-in by last name', () =>
      openSession(t, { reservationId: booked.code, lastName: 'Silva' }),
    );
    assert.equal(opened.statusCode, 201, opened.body);
    const id = opened.json().session.id;
    await step('open it again by access token', () =>
      openSession(t, { reservationId: booked.code }, { authorization: `Bearer ${booked.token}` }),
    );
    await step('guest details', () => stepOk(t, id, 'guest_details', GUEST_DETAILS));
    await step('identity document', () =>
      stepOk(t, id, 'identity_document', identityDocument(booked.checkOut)),
    );
    await step('signature', () => stepOk(t, id, 'signature', SIGNATURE));
    await step('payment, completing the check-in', () => stepOk(t, id, 'payment', { token: 'tok_visa' }));
    const read = await step('read the session', () => getSession(t, id));
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json().session.status, 'completed', read.body);
    const prepaid = await step('a prepaid booking', () =>
      bookStay(t, hotel, { ratePlanId: 'nonref', fromToday: 9 }),
    );
    const cancelled = await step('cancel it', () => cancel(t, prepaid.code, prepaid.token));
    assert.equal(cancelled.statusCode, 200, cancelled.body);

    const flow = await counters();
    assert.deepEqual(perRequest, [], 'requests that asked every shard');
    assert.equal(flow.multi, before.multi, 'multi-shard statements during the flow');
    assert.ok(
      flow.single - before.single >= 20,
      `the flow's one-shard statements were counted: ${flow.single - before.single}`,
    );

    // And the count counts: a read by a column that is not the hotel asks every shard.
    await t.db.query('SELECT count(*) FROM reservations WHERE status = $1', ['confirmed']);
    assert.equal((await counters()).multi, flow.multi + 1, 'a statement over every shard is counted');
  });
});
