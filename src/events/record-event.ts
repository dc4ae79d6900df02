import { randomToken } from '../infra/crypto/tokens.ts';
import { type Executor, isTransaction } from '../infra/db/database.ts';
import type { WritePart } from '../infra/db/write-part.ts';
import { eventOutboxRepository } from './event-outbox.repository.ts';
import type { NewEvent } from './event-types.ts';
import { deliveriesDue, WEBHOOK_CHANNEL } from './webhook-wake.ts';

/**
 * Writes an event into the outbox with the transaction `tx` of the change it records: both commit
 * or neither does. Call it inside the command's transaction, never after it. `alongside`: other
 * writes of the change (its audit entry), carried by the event's statement.
 */
export async function recordEvent(
  tx: Executor,
  event: NewEvent,
  alongside: readonly WritePart[] = [],
): Promise<string> {
  const id = randomToken('evt_', 16);
  const deliveries = await eventOutboxRepository.insert(
    tx,
    { publicId: id, type: event.type, hotelId: event.hotelId, data: event.data },
    WEBHOOK_CHANNEL,
    alongside,
  );
  if (deliveries > 0 && isTransaction(tx)) {
    // This process's worker starts at once, without the notification's round trip (and on the
    // embedded engine, which has no notifications).
    const identity = tx.database.identity;
    tx.onEnd(async (committed) => {
      if (committed) deliveriesDue(identity);
    });
  }
  return id;
}
