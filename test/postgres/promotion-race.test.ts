/**
 * Promotion codes on two service processes sharing one PostgreSQL database (API.md 14.1): 100
 * bookings race for a code with `maxUses: 10` and exactly 10 get it; a cancellation gives a use
 * back; a code saved through one process applies at once through the other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import { makeHotel } from '../helpers/test-app.ts';
import {
  DATABASE_URL,
  http,
  inParallel,
  inventoryKey,
  needsPostgres,
  newEncryptionKey,
  type ServiceProcess,
  sqlClient,
  startService,
  writeCatalog,
} from './support.ts';

const BOOKINGS = 100;
const MAX_USES = 10;

describe('promotion codes across processes on one PostgreSQL database', () => {
  const hotel = makeHotel({
    promotions: [{ code: 'RACE10', name: 'Race', discount: { percent: 10 }, maxUses: MAX_USES }],
  });
  hotel.roomTypes = hotel.roomTypes.map((rt) => (rt.id === 'double' ? { ...rt, count: BOOKINGS + 10 } : rt));
  const services: ServiceProcess[] = [];
  let sql: pg.Client;
  let key = '';
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const stay = {
    hotelId: hotel.id,
    checkIn: day(20),
    checkOut: day(22),
    adults: 1,
    roomTypeId: 'double',
    ratePlanId: 'flex',
  };
  const service = (i: number) => services[i % 2] as ServiceProcess;

  before(async () => {
    if (needsPostgres) return;
    const encryptionKey = newEncryptionKey();
    const env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: encryptionKey,
      CATALOG_FILE: await writeCatalog([hotel]),
      DB_POOL_SIZE: '10',
      LOAD_SHED_MAX_WAIT_MS: '0',
      RATE_LIMIT_PER_MINUTE: '0',
    };
    services.push(...(await Promise.all([startService(env), startService(env)])));
    sql = await sqlClient();
    key = await inventoryKey(sql, encryptionKey, 'promotions');
  });
  after(async () => {
    if (needsPostgres) return;
    await sql?.end();
    const exits = await Promise.all(services.map((s) => s.stop()));
    for (const exit of exits) assert.deepEqual(exit, { code: 0, signal: null });
  });

  test('100 bookings race for a code with maxUses 10: exactly 10 get it; a cancellation gives one back', {
    skip: needsPostgres,
  }, async () => {
    // Quotes first: a quote does not take a use, so all 100 hold the code's price.
    const quotes = await inParallel(
      Array.from({ length: BOOKINGS }, (_, i) => i),
      10,
      async (i) => {
        const q = await http(service(i).baseUrl, 'POST', '/api/v1/booking/quote', {
          ...stay,
          promoCode: 'race10',
        });
        assert.equal(q.status, 201, JSON.stringify(q.body));
        return q.body.id as string;
      },
    );
    // Then every booking at once, alternating between the processes.
    const results = await Promise.all(
      quotes.map((quoteId, i) =>
        http(service(i).baseUrl, 'POST', '/api/v1/booking/reservations', {
          quoteId,
          guest: { firstName: 'Ana', lastName: 'Silva', email: `guest${i}@example.com` },
        }),
      ),
    );
    const booked = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    assert.equal(
      booked.length,
      MAX_USES,
      JSON.stringify(refused.find((r) => r.status !== 422)?.body ?? null),
    );
    for (const r of booked) assert.equal(r.body.promotion.code, 'RACE10');
    for (const r of refused) {
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.equal(r.body.code, 'promo_code_invalid');
      assert.equal(r.body.errors[0].reason, 'used_up');
    }
    // The refused took no room and the database agrees with the answers.
    const { rows } = await sql.query(
      `SELECT count(*)::int AS n FROM reservations WHERE hotel_id = $1 AND status = 'confirmed'`,
      [hotel.id],
    );
    assert.equal(rows[0].n, MAX_USES);
    const counter = await sql.query('SELECT uses FROM promotion_counters WHERE hotel_id = $1 AND code = $2', [
      hotel.id,
      'RACE10',
    ]);
    assert.equal(counter.rows[0].uses, MAX_USES);

    // Used up for everyone, on both processes.
    for (const s of services) {
      const r = await http(s.baseUrl, 'POST', '/api/v1/booking/availability/search', {
        hotelId: hotel.id,
        checkIn: stay.checkIn,
        checkOut: stay.checkOut,
        adults: 1,
        promoCode: 'RACE10',
      });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.equal(r.body.errors[0].reason, 'used_up');
    }

    // A cancellation on one process gives the use back: the other process books with the code.
    const first = booked[0]?.body;
    const cancelled = await http(
      service(0).baseUrl,
      'POST',
      `/api/v1/booking/reservations/${first.id}/cancel`,
      {},
      {
        authorization: `Bearer ${first.accessToken}`,
      },
    );
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    const q = await http(service(1).baseUrl, 'POST', '/api/v1/booking/quote', {
      ...stay,
      promoCode: 'RACE10',
    });
    assert.equal(q.status, 201, JSON.stringify(q.body));
    const again = await http(service(1).baseUrl, 'POST', '/api/v1/booking/reservations', {
      quoteId: q.body.id,
      guest: { firstName: 'Eva', lastName: 'Costa', email: 'eva@example.com' },
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.promotion.code, 'RACE10');
  });

  test('a code saved through one process applies at once through the other', {
    skip: needsPostgres,
  }, async () => {
    const auth = { authorization: `Bearer ${key}` };
    const saved = await http(
      service(0).baseUrl,
      'PUT',
      `/api/v1/operator/hotels/${hotel.id}/promotions/NEWCODE`,
      {
        name: 'New',
        discount: { amountPerNight: 500 },
      },
      auth,
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const q = await http(service(1).baseUrl, 'POST', '/api/v1/booking/quote', {
      ...stay,
      promoCode: 'newcode',
    });
    assert.equal(q.status, 201, JSON.stringify(q.body));
    assert.equal(q.body.promotion.code, 'NEWCODE');
    const deleted = await http(
      service(1).baseUrl,
      'DELETE',
      `/api/v1/operator/hotels/${hotel.id}/promotions/NEWCODE`,
      undefined,
      auth,
    );
    assert.equal(deleted.status, 204);
    const gone = await http(service(0).baseUrl, 'POST', '/api/v1/booking/quote', {
      ...stay,
      promoCode: 'NEWCODE',
    });
    assert.equal(gone.status, 422);
    assert.equal(gone.body.errors[0].reason, 'unknown');
  });
});
