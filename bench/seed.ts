import type { Executor } from '../src/infra/db/database.ts';
import { HOTEL_ID } from './catalog.ts';

/**
 * Stores `count` confirmed reservations spread over 2,000 nights (1,600 in the past, 400 ahead)
 * and, 2,000 at a time, over `types` room types, with the inventory rows they imply, in a few
 * set-based statements.
 */
export async function seedReservations(db: Executor, count: number, types: number): Promise<void> {
  await db.query(
    `INSERT INTO reservations (code, hotel_id, status, room_type_id, rate_plan_id, check_in, check_out, rooms,
                               stay, guest, total_amount, currency, payment_status, access_token_hash)
     SELECT 'B' || g, $1, 'confirmed', 'rt' || ((g / 2000) % $3), 'flex',
            current_date + (g % 2000) - 1600, current_date + (g % 2000) - 1600 + 1 + (g % 3), 1,
            '{}'::jsonb, '{"firstName":"Seed","lastName":"Guest","email":"seed@example.com"}'::jsonb,
            12000, 'EUR', 'unpaid', decode(md5('bench' || g), 'hex')
     FROM generate_series(1, $2::int) AS g`,
    [HOTEL_ID, count, types],
  );
  await db.query(
    `INSERT INTO inventory (hotel_id, room_type_id, night, total, sold)
     SELECT r.hotel_id, r.room_type_id, n::date, 100000, sum(r.rooms)
     FROM reservations r, generate_series(r.check_in, r.check_out - 1, interval '1 day') AS n
     WHERE r.hotel_id = $1
     GROUP BY r.hotel_id, r.room_type_id, n::date
     ON CONFLICT (hotel_id, room_type_id, night) DO UPDATE SET sold = excluded.sold, version = inventory.version + 1`,
    [HOTEL_ID],
  );
  await db.query('ANALYZE reservations');
  await db.query('ANALYZE inventory');
}
