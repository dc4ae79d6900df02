/**
 * Graceful shutdown of a real process (API.md section 6): SIGTERM while a request is in flight
 * lets it finish, stops accepting new ones, drains the pool and exits 0. The request is held in
 * flight deterministically by a row lock the test takes on the nights it books.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';
import {
  DATABASE_URL,
  eventually,
  http,
  needsPostgres,
  newEncryptionKey,
  sqlClient,
  startService,
  writeCatalog,
} from './support.ts';

const BOOKING = '/api/v1/booking';
const GUEST = { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' };

describe('graceful shutdown', () => {
  test('SIGTERM during a request: the request completes, the pool drains, the process exits 0', {
    skip: needsPostgres,
  }, async () => {
    const hotel = makeHotel();
    const service = await startService({
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: newEncryptionKey(),
      CATALOG_FILE: await writeCatalog([hotel]),
    });
    const sql = await sqlClient();
    try {
      const stay = { hotelId: hotel.id, checkIn: daysFromNow(30), checkOut: daysFromNow(32), adults: 2 };
      const book = async () => {
        const quote = await http(service.baseUrl, 'POST', `${BOOKING}/quote`, {
          ...stay,
          roomTypeId: 'double',
          ratePlanId: 'flex',
        });
        assert.equal(quote.status, 201);
        return http(service.baseUrl, 'POST', `${BOOKING}/reservations`, {
          quoteId: quote.body.id,
          guest: GUEST,
        });
      };
      // The first booking creates the nights' inventory rows; the test then locks them.
      assert.equal((await book()).status, 201);
      const quote = await http(service.baseUrl, 'POST', `${BOOKING}/quote`, {
        ...stay,
        roomTypeId: 'double',
        ratePlanId: 'flex',
      });
      await sql.query('BEGIN');
      await sql.query('SELECT 1 FROM inventory WHERE hotel_id = $1 FOR UPDATE', [hotel.id]);
      const inFlight = http(service.baseUrl, 'POST', `${BOOKING}/reservations`, {
        quoteId: quote.body.id,
        guest: GUEST,
      });
      // On Citus the booking waits on a worker, where the nights' shard is: the coordinator shows
      // the wait in citus_lock_waits, not as a lock wait of its own backend.
      const citus = (await sql.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`)).rows.length > 0;
      await eventually('the reservation to wait on the locked nights', async () => {
        const { rows } = await sql.query(
          citus
            ? 'SELECT 1 FROM citus_lock_waits'
            : `SELECT 1 FROM pg_stat_activity
               WHERE datname = current_database() AND application_name = 'innkeep' AND wait_event_type = 'Lock'`,
        );
        return rows.length > 0 ? true : undefined;
      });

      // The listener stays open until no connection was accepted for 100 ms (connection-drain.ts:
      // queued connections are answered, never reset); the booking's connection was accepted just
      // now, so the quiet period passes first: the listener then closes as shutdown begins.
      await new Promise((resolve) => setTimeout(resolve, 250));
      service.child.kill('SIGTERM');
      await eventually('the service to start shutting down', async () =>
        service.lines.some((l) => l.includes('shutting down')) ? true : undefined,
      );
      // No new work is accepted once shutdown began (refused connection or 503).
      const late = await http(service.baseUrl, 'GET', '/healthz').then(
        (r) => r.status,
        () => 'refused',
      );
      assert.ok(late === 'refused' || late === 503, `a request after SIGTERM got ${late}`);
      assert.equal(service.child.exitCode, null, 'the process waits for the request in flight');

      await sql.query('COMMIT');
      const finished = await inFlight;
      assert.equal(finished.status, 201, JSON.stringify(finished.body));
      assert.match(finished.body.accessToken, /^rat_/);

      const exit = await service.exited;
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.ok(service.lines.some((l) => l.includes('"msg":"stopped"')));
    } finally {
      await sql.query('ROLLBACK').catch(() => {});
      await sql.end();
      await service.stop();
    }
  });
});
