import type { Executor } from '../infra/db/database.ts';

/** The `stripe_webhook_events` table: the ids of the Stripe events applied, each once. */
export const stripeWebhookEvents = {
  /**
   * Notes an event as applied, in the transaction that applies it; false when its id was noted
   * before (a redelivery: nothing to do).
   */
  async firstTime(tx: Executor, eventId: string, type: string, objectId: string | null): Promise<boolean> {
    const { rows } = await tx.query(
      `INSERT INTO stripe_webhook_events (event_id, type, object_id) VALUES ($1, $2, $3)
       ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [eventId, type, objectId],
    );
    return rows.length > 0;
  },
};
