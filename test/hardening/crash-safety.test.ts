import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openEmbeddedDatabase } from '../../src/infra/db/pglite.ts';
import { http, startService } from '../helpers/service-process.ts';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';
import { seededDataDir } from '../helpers/test-database.ts';

const TARGET_CREATED = 40;

interface Booked {
  code: string;
  token: string;
  roomTypeId: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
}

/** Inventory sold, night by night, that no confirmed reservation accounts for (or the reverse). */
const INVENTORY_MISMATCHES = `WITH held AS (
    SELECT r.hotel_id, r.room_type_id, n::date AS night, sum(r.rooms)::int AS rooms
    FROM reservations r, generate_series(r.check_in, r.check_out - 1, interval '1 day') AS n
    WHERE r.status = 'confirmed' GROUP BY 1, 2, 3)
  SELECT coalesce(i.room_type_id, h.room_type_id) AS room_type_id, coalesce(i.night, h.night) AS night,
         coalesce(i.sold, 0) AS sold, coalesce(h.rooms, 0) AS held
  FROM inventory i FULL JOIN held h
    ON h.hotel_id = i.hotel_id AND h.room_type_id = i.room_type_id AND h.night = i.night
  WHERE coalesce(i.sold, 0) <> coalesce(h.rooms, 0)`;

/** A hotel with plenty of rooms, its catalogue file and the service's environment in `dir`. */
async function crashSetup(dir: string) {
  const hotel = makeHotel({
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 500, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'suite', name: 'Suite', count: 500, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    ],
  });
  const catalogFile = join(dir, 'catalog.json');
  await writeFile(catalogFile, JSON.stringify({ hotels: [hotel] }));
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: join(dir, 'data'),
    CATALOG_FILE: catalogFile,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'info',
    DATABASE_URL: '',
  };
  return { hotel, env };
}

describe('crash safety (embedded engine, SIGKILL mid-stream)', () => {
  let dir = '';
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every reservation answered 201, and inventory equal to the confirmed rooms', async () => {
    dir = await seededDataDir('innkeep-crash-', 'data');
    const { hotel, env } = await crashSetup(dir);

    const first = await startService(env);
    const created: Booked[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const roomTypeId = (w + i) % 2 ? 'suite' : 'double';
        const start = 10 + ((w * 7 + i * 3) % 60);
        const stay = {
          checkIn: daysFromNow(start),
          checkOut: daysFromNow(start + 1 + (i % 3)),
          rooms: 1 + (i % 2),
        };
        try {
          const quote = await http(first.baseUrl, 'POST', '/api/v1/booking/quote', {
            hotelId: hotel.id,
            ...stay,
            adults: stay.rooms,
            roomTypeId,
            ratePlanId: 'flex',
          });
          if (quote.status !== 201) throw new Error(`quote ${quote.status}`);
          const res = await http(first.baseUrl, 'POST', '/api/v1/booking/reservations', {
            quoteId: quote.body.id,
            guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' },
          });
          if (res.status === 201) {
            created.push({
              code: String(res.body.id),
              token: String(res.body.accessToken),
              roomTypeId,
              ...stay,
            });
          }
        } catch {
          return; // the service died under us: any request in flight has no answer, so no promise
        }
      }
    };
    const workers = [0, 1, 2, 3].map(worker);
    // Kill while requests are in flight, once enough reservations were confirmed.
    while (created.length < TARGET_CREATED) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    await first.exited;
    const confirmed = [...created];

    // Restart on the same data directory: it must start, and every answered reservation must work.
    const second = await startService(env);
    try {
      const sample = confirmed.filter((_, i) => i % 8 === 0);
      for (const r of sample) {
        const res = await http(
          second.baseUrl,
          'POST',
          `/api/v1/booking/reservations/${r.code}/cancel`,
          {},
          { authorization: `Bearer ${r.token}` },
        );
        assert.equal(res.status, 200, `cancel ${r.code} after the restart: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.status, 'cancelled');
      }
    } finally {
      await second.stop();
    }

    const db = await openEmbeddedDatabase(join(dir, 'data', 'pgdata'));
    try {
      const { rows } = await db.query<{ code: string; status: string; rooms: number }>(
        'SELECT code, status, rooms FROM reservations',
      );
      const stored = new Map(rows.map((r) => [r.code, r]));
      for (const r of confirmed) {
        assert.ok(stored.has(r.code), `reservation ${r.code} answered 201 before the kill is stored`);
        assert.equal(stored.get(r.code)?.rooms, r.rooms);
      }
      // Inventory equals the rooms of the confirmed reservations, night by night (no half-applied booking).
      const { rows: mismatches } = await db.query(INVENTORY_MISMATCHES);
      assert.deepEqual(mismatches, [], 'inventory sold = confirmed rooms per night');
      const { rows: counts } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM reservations WHERE status = 'confirmed'`,
      );
      assert.ok((counts[0]?.n ?? 0) >= confirmed.length - Math.ceil(confirmed.length / 8));
    } finally {
      await db.close();
    }
  });

  it('answers every retried Idempotency-Key after a kill with its reservation, never quote_already_used', async () => {
    const keyed = await seededDataDir('innkeep-crash-keys-', 'data');
    try {
      const { hotel, env } = await crashSetup(keyed);
      const first = await startService(env);
      // Every reservation request sent, in flight at the kill or answered before it.
      const sent: Array<{ key: string; body: Record<string, unknown>; code?: string; token?: string }> = [];
      let answered = 0;
      let stop = false;
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const start = 10 + ((w * 7 + i * 3) % 60);
          try {
            const quote = await http(first.baseUrl, 'POST', '/api/v1/booking/quote', {
              hotelId: hotel.id,
              checkIn: daysFromNow(start),
              checkOut: daysFromNow(start + 1 + (i % 3)),
              adults: 1,
              roomTypeId: (w + i) % 2 ? 'suite' : 'double',
              ratePlanId: 'flex',
            });
            if (quote.status !== 201) throw new Error(`quote ${quote.status}`);
            const request = {
              key: randomUUID(),
              body: {
                quoteId: quote.body.id,
                guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' },
              },
            } as (typeof sent)[number];
            sent.push(request);
            const res = await http(first.baseUrl, 'POST', '/api/v1/booking/reservations', request.body, {
              'idempotency-key': request.key,
            });
            if (res.status !== 201) throw new Error(`reservation ${res.status}`);
            request.code = String(res.body.id);
            request.token = String(res.body.accessToken);
            answered++;
          } catch {
            return; // the service died under us
          }
        }
      };
      const workers = [0, 1, 2, 3].map(worker);
      while (answered < TARGET_CREATED) await new Promise((resolve) => setTimeout(resolve, 20));
      first.child.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      await first.exited;

      // As if the 60 s claim of a request cut short before its commit had passed.
      const offline = await openEmbeddedDatabase(join(keyed, 'data', 'pgdata'));
      await offline.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second'`);
      await offline.query(`UPDATE hotel_idempotency_keys SET locked_until = now() - interval '1 second'`);
      await offline.close();

      const second = await startService(env);
      try {
        for (const request of sent) {
          const retry = await http(second.baseUrl, 'POST', '/api/v1/booking/reservations', request.body, {
            'idempotency-key': request.key,
          });
          assert.equal(retry.status, 201, `retry of ${request.key}: ${JSON.stringify(retry.body)}`);
          if (request.code) {
            // Answered before the kill: the same reservation and token, replayed.
            assert.equal(retry.headers.get('idempotent-replayed'), 'true');
            assert.equal(retry.body.id, request.code);
            assert.equal(retry.body.accessToken, request.token);
          }
          request.code = String(retry.body.id);
        }
      } finally {
        await second.stop();
      }

      const db = await openEmbeddedDatabase(join(keyed, 'data', 'pgdata'));
      try {
        const { rows } = await db.query<{ code: string }>('SELECT code FROM reservations');
        // One reservation per key, each the one its retry answered: none orphaned, none twice.
        assert.deepEqual(rows.map((r) => r.code).sort(), sent.map((r) => r.code).sort());
        assert.deepEqual((await db.query(INVENTORY_MISMATCHES)).rows, [], 'inventory sold = confirmed rooms');
      } finally {
        await db.close();
      }
    } finally {
      await rm(keyed, { recursive: true, force: true });
    }
  });
});
