/**
 * Deposit plans' balances (API.md 14.2) on real service processes sharing one PostgreSQL database:
 * balances that came due while the service was down are charged after it comes back, each exactly
 * once (one charge in the ledger, one `payment.succeeded`), though two processes start at once and
 * race for them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import { depositPlan } from '../deposits/deposit-plan.ts';
import { makeHotel } from '../helpers/test-app.ts';
import {
  DATABASE_URL,
  eventually,
  http,
  inParallel,
  needsPostgres,
  newEncryptionKey,
  type ServiceProcess,
  sqlClient,
  startService,
  writeCatalog,
} from './support.ts';

const RESERVATIONS = 8;

describe('balances charged once by processes coming back on one PostgreSQL database', () => {
  const hotel = makeHotel({ timezone: 'Europe/Lisbon', taxes: [] });
  hotel.ratePlans.push(depositPlan());
  hotel.roomTypes = hotel.roomTypes.map((rt) => (rt.id === 'double' ? { ...rt, count: RESERVATIONS } : rt));
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  let env: Record<string, string> = {};
  let sql: pg.Client;
  const running: ServiceProcess[] = [];

  before(async () => {
    if (needsPostgres) return;
    env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: newEncryptionKey(),
      CATALOG_FILE: await writeCatalog([hotel]),
      DB_POOL_SIZE: '5',
      LOAD_SHED_MAX_WAIT_MS: '0',
      BALANCE_POLL_INTERVAL_MS: '100',
      CHECKIN_INVITE_TIME: '10:00',
    };
    sql = await sqlClient();
  });
  after(async () => {
    if (needsPostgres) return;
    await sql?.end();
    const exits = await Promise.all(running.map((s) => s.stop()));
    for (const exit of exits) assert.deepEqual(exit, { code: 0, signal: null });
  });

  test('balances due while the service was down: each charged once after two processes start', {
    skip: needsPostgres,
  }, async () => {
    // Booked through one process, 20 days ahead: the balances are due in 13 days.
    const first = await startService(env);
    const codes = await inParallel(
      Array.from({ length: RESERVATIONS }, (_, i) => i),
      4,
      async (i) => {
        const quote = await http(first.baseUrl, 'POST', '/api/v1/booking/quote', {
          hotelId: hotel.id,
          checkIn: day(20),
          checkOut: day(22),
          adults: 2,
          roomTypeId: 'double',
          ratePlanId: 'deposit',
        });
        assert.equal(quote.status, 201, JSON.stringify(quote.body));
        const res = await http(first.baseUrl, 'POST', '/api/v1/booking/reservations', {
          quoteId: quote.body.id,
          guest: { firstName: 'Ana', lastName: 'Silva', email: `guest${i}@example.com` },
          payment: { token: 'tok_visa' },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(res.body.payment.paid.amount, 6000);
        return res.body.id as string;
      },
    );
    assert.deepEqual(await first.stop(), { code: 0, signal: null });

    // While the service is down, the balances come due (their due time moved into the past).
    const moved = await sql.query(
      `UPDATE balance_charges SET due_at = now() - interval '1 hour'
       WHERE hotel_id = $1 AND reservation_id IN (SELECT id FROM reservations WHERE hotel_id = $1)`,
      [hotel.id],
    );
    assert.equal(moved.rowCount, RESERVATIONS);

    // Two processes come back at once; both look for due balances every 100 ms.
    running.push(...(await Promise.all([startService(env), startService(env)])));
    await eventually(
      'every balance charged',
      async () => {
        const { rows } = await sql.query(
          `SELECT count(*)::int AS n FROM balance_charges WHERE hotel_id = $1`,
          [hotel.id],
        );
        return rows[0].n === 0 ? true : undefined;
      },
      400,
    );
    // A few more polls of both processes: nothing is charged again.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const charges = await sql.query(
      `SELECT r.code, p.amount::int AS amount FROM payments p
       JOIN reservations r ON r.hotel_id = p.hotel_id AND r.id = p.reservation_id
       WHERE p.hotel_id = $1 AND p.kind = 'charge' AND p.purpose = 'balance' ORDER BY r.code`,
      [hotel.id],
    );
    assert.deepEqual(
      charges.rows.map((r) => [r.code, r.amount]),
      [...codes].sort().map((code) => [code, 14000]),
      'one balance charge per reservation',
    );
    const events = await sql.query(
      `SELECT data->'reservation'->>'id' AS code FROM events
       WHERE hotel_id = $1 AND type = 'payment.succeeded' AND data->'payment'->>'purpose' = 'balance'
       ORDER BY 1`,
      [hotel.id],
    );
    assert.deepEqual(
      events.rows.map((r) => r.code),
      [...codes].sort(),
      'one payment.succeeded per reservation',
    );
    const { rows } = await sql.query(
      `SELECT paid_amount::int AS paid, stay->'paymentSchedule'->1->>'status' AS balance
       FROM reservations WHERE hotel_id = $1`,
      [hotel.id],
    );
    assert.deepEqual(
      rows.map((r) => [r.paid, r.balance]),
      codes.map(() => [20000, 'paid']),
    );
  });
});
