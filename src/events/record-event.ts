import { randomToken } from '../infra/crypto/tokens.ts';
import type { Executor } from '../infra/db/database.ts';
import type { NewEvent } from './event-types.ts';

/**
 * Writes an event into the outbox with the transaction `tx` of the change it records: both commit
 * or neither does. Call it inside the command's transaction, never after it.
 */
export async function recordEvent(tx: Executor, event: NewEvent): Promise<string> {
  const id = randomToken('evt_', 16);
  await tx.query('INSERT INTO events (public_id, type, hotel_id, data) VALUES ($1, $2, $3, $4)', [
    id,
    event.type,
    event.hotelId,
    JSON.stringify(event.data),
  ]);
  return id;
}
