import type { Executor } from '../infra/db/database.ts';

export interface UnmatchedIntent {
  intentId: string;
  hotelId: string | null;
  reference: string;
  amount: number;
  currency: string;
  /** Noted from a webhook before Innkeep's record of it existed: the key to find that record by. */
  chargeKey?: string | null;
}

/** Innkeep's record of the unmatched intent `u`: by its id, or by the key of a create call whose answer was lost. */
const RECORDED = `EXISTS (SELECT 1 FROM stripe_payment_intents s
   WHERE s.hotel_id = u.hotel_id
     AND (s.intent_id = u.intent_id OR (s.charge_key = u.charge_key AND s.intent_id IS NULL)))`;

/** A PaymentIntent Innkeep asked Stripe for (migration 074): for this hotel and this basis. */
export interface CreatedIntent {
  hotelId: string;
  /** The Stripe idempotency key of the create call (`chargeIdempotencyKey`). */
  chargeKey: string;
  /** Null while the create call's answer was lost (a timeout): filled when the webhook names it. */
  intentId: string | null;
  basis: string;
  amount: number;
  currency: string;
}

/**
 * `stripe_unmatched_intents` (migration 040): PaymentIntents that took money without a ledger row
 * yet. Settled `matched` by the charge that records them, or `refunded` by the payment worker
 * once their grace has passed.
 */
export const stripeIntents = {
  /** Outside the charge's transaction (it may roll back): the PaymentIntent is Innkeep's from now on. */
  async noteCreated(ex: Executor, intent: CreatedIntent): Promise<void> {
    await ex.query(
      `INSERT INTO stripe_payment_intents (hotel_id, charge_key, intent_id, basis, amount, currency)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (hotel_id, charge_key) DO UPDATE
         SET intent_id = COALESCE(stripe_payment_intents.intent_id, EXCLUDED.intent_id)`,
      [intent.hotelId, intent.chargeKey, intent.intentId, intent.basis, intent.amount, intent.currency],
    );
  },

  /**
   * The record of a PaymentIntent Innkeep created: by its id, or else (the create call's answer was
   * lost) by the hotel and the idempotency key its parameters give, which it then takes as its id.
   */
  async created(
    ex: Executor,
    intentId: string,
    byKey: { hotelId: string; chargeKey: string } | null,
  ): Promise<CreatedIntent | null> {
    const columns = `hotel_id AS "hotelId", charge_key AS "chargeKey", intent_id AS "intentId", basis,
       amount, currency`;
    const found = await ex.query<CreatedIntent>(
      `SELECT ${columns} FROM stripe_payment_intents WHERE intent_id = $1`,
      [intentId],
    );
    let row = found.rows[0];
    if (!row && byKey) {
      const named = await ex.query<CreatedIntent>(
        `UPDATE stripe_payment_intents SET intent_id = $3
         WHERE hotel_id = $1 AND charge_key = $2 AND intent_id IS NULL RETURNING ${columns}`,
        [byKey.hotelId, byKey.chargeKey, intentId],
      );
      row = named.rows[0];
    }
    return row ? { ...row, amount: Number(row.amount) } : null;
  },

  async noteUnmatched(ex: Executor, intent: UnmatchedIntent): Promise<void> {
    await ex.query(
      `INSERT INTO stripe_unmatched_intents (intent_id, hotel_id, reference, amount, currency, charge_key)
       SELECT $1, $2, $3, $4, $5, $6
       WHERE NOT EXISTS (SELECT 1 FROM payments WHERE provider = 'stripe' AND provider_ref = $1 AND kind = 'charge')
       ON CONFLICT (intent_id) DO NOTHING`,
      [
        intent.intentId,
        intent.hotelId,
        intent.reference,
        intent.amount,
        intent.currency,
        intent.chargeKey ?? null,
      ],
    );
  },

  /** In the charge's transaction: false when the worker already refunded this payment. */
  async claimForCharge(tx: Executor, intentId: string): Promise<boolean> {
    const { rows } = await tx.query<{ settlement: string | null }>(
      `SELECT settlement FROM stripe_unmatched_intents WHERE intent_id = $1 FOR UPDATE`,
      [intentId],
    );
    const row = rows[0];
    if (!row) return true;
    if (row.settlement === 'refunded') return false;
    await tx.query(
      `UPDATE stripe_unmatched_intents SET settled_at = now(), settlement = 'matched', last_error = NULL
       WHERE intent_id = $1`,
      [intentId],
    );
    return true;
  },

  /**
   * Claims the intents past their grace that no charge recorded, marking them `refunded` before
   * the refund is asked (a charge arriving later finds them refunded and declines): only those
   * Innkeep recorded creating. Intents a charge did record are settled `matched` on the way, and the
   * ones past their grace that Innkeep did not create `foreign`.
   */
  async claimExpired(tx: Executor, seenBefore: Date, limit: number): Promise<UnmatchedIntent[]> {
    await tx.query(
      `UPDATE stripe_unmatched_intents u SET settled_at = now(), settlement = 'matched'
       WHERE settled_at IS NULL AND EXISTS
         (SELECT 1 FROM payments p WHERE p.provider = 'stripe' AND p.provider_ref = u.intent_id AND p.kind = 'charge')`,
    );
    // Past their grace without Innkeep's record of creating them (migration 074): another
    // integration's, or noted before that record existed. Never refunded by Innkeep.
    await tx.query(
      `UPDATE stripe_unmatched_intents u SET settled_at = now(), settlement = 'foreign',
         last_error = 'not a PaymentIntent Innkeep recorded creating: never refunded by Innkeep'
       WHERE settled_at IS NULL AND seen_at < $1 AND NOT ${RECORDED}`,
      [seenBefore],
    );
    const { rows } = await tx.query<UnmatchedIntent>(
      `UPDATE stripe_unmatched_intents SET settled_at = now(), settlement = 'refunded'
       WHERE intent_id IN (SELECT intent_id FROM stripe_unmatched_intents u
                           WHERE settled_at IS NULL AND seen_at < $1 AND ${RECORDED}
                           ORDER BY seen_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING intent_id AS "intentId", hotel_id AS "hotelId", reference, amount, currency`,
      [seenBefore, limit],
    );
    return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
  },

  /** A refund of an unmatched intent Stripe refused for good: settled `failed`, never retried. */
  async refused(ex: Executor, intentId: string, error: string): Promise<void> {
    await ex.query(
      `UPDATE stripe_unmatched_intents SET settled_at = now(), settlement = 'failed', last_error = $2
       WHERE intent_id = $1`,
      [intentId, error],
    );
  },

  /** A refund of an unmatched intent that failed: open again, to be retried. */
  async reopen(ex: Executor, intentId: string, error: string): Promise<void> {
    await ex.query(
      `UPDATE stripe_unmatched_intents SET settled_at = NULL, settlement = 'failed', last_error = $2
       WHERE intent_id = $1`,
      [intentId, error],
    );
  },
};
