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

/*
 * `stripe_unmatched_intents` is the coordinator's own table on Citus, and `payments` and
 * `stripe_payment_intents` are sharded by hotel: Citus refuses one statement that writes the first
 * and reads the others ("relation stripe_unmatched_intents is not distributed"). So what the
 * hotels' tables say is read first, by statements of their own, and the writes go by intent id.
 */

/** Of `intentIds`, those a recorded Stripe charge names. */
async function charged(ex: Executor, intentIds: readonly string[]): Promise<string[]> {
  if (intentIds.length === 0) return [];
  const { rows } = await ex.query<{ ref: string }>(
    `SELECT DISTINCT provider_ref AS ref FROM payments
      WHERE provider = 'stripe' AND kind = 'charge' AND provider_ref = ANY($1::text[])`,
    [intentIds],
  );
  return rows.map((r) => r.ref);
}

/** Of the unmatched intents given, those Innkeep recorded creating: by id, or by the key of a create call whose answer was lost. */
async function recorded(
  ex: Executor,
  intents: readonly { intent_id: string; hotel_id: string | null; charge_key: string | null }[],
): Promise<Set<string>> {
  if (intents.length === 0) return new Set();
  const { rows } = await ex.query<{ intent_id: string }>(
    `SELECT DISTINCT u.intent_id
       FROM unnest($1::text[], $2::text[], $3::text[]) AS u(intent_id, hotel_id, charge_key)
       JOIN stripe_payment_intents s ON s.hotel_id = u.hotel_id
        AND (s.intent_id = u.intent_id OR (s.charge_key = u.charge_key AND s.intent_id IS NULL))`,
    [intents.map((i) => i.intent_id), intents.map((i) => i.hotel_id), intents.map((i) => i.charge_key)],
  );
  return new Set(rows.map((r) => r.intent_id));
}

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
    if ((await charged(ex, [intent.intentId])).length > 0) return;
    await ex.query(
      `INSERT INTO stripe_unmatched_intents (intent_id, hotel_id, reference, amount, currency, charge_key)
       VALUES ($1, $2, $3, $4, $5, $6)
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
    const open = await tx.query<{
      intent_id: string;
      hotel_id: string | null;
      charge_key: string | null;
      expired: boolean;
    }>(
      `SELECT intent_id, hotel_id, charge_key, seen_at < $1 AS expired FROM stripe_unmatched_intents
        WHERE settled_at IS NULL`,
      [seenBefore],
    );
    const matched = await charged(
      tx,
      open.rows.map((r) => r.intent_id),
    );
    await tx.query(
      `UPDATE stripe_unmatched_intents SET settled_at = now(), settlement = 'matched'
       WHERE settled_at IS NULL AND intent_id = ANY($1::text[])`,
      [matched],
    );
    const expired = open.rows.filter((r) => r.expired && !matched.includes(r.intent_id));
    const ours = await recorded(tx, expired);
    // Past their grace without Innkeep's record of creating them (migration 074): another
    // integration's, or noted before that record existed. Never refunded by Innkeep.
    await tx.query(
      `UPDATE stripe_unmatched_intents SET settled_at = now(), settlement = 'foreign',
         last_error = 'not a PaymentIntent Innkeep recorded creating: never refunded by Innkeep'
       WHERE settled_at IS NULL AND seen_at < $1 AND intent_id = ANY($2::text[])`,
      [seenBefore, expired.filter((r) => !ours.has(r.intent_id)).map((r) => r.intent_id)],
    );
    const { rows } = await tx.query<UnmatchedIntent>(
      `UPDATE stripe_unmatched_intents SET settled_at = now(), settlement = 'refunded'
       WHERE intent_id IN (SELECT intent_id FROM stripe_unmatched_intents
                           WHERE settled_at IS NULL AND seen_at < $1 AND intent_id = ANY($3::text[])
                           ORDER BY seen_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING intent_id AS "intentId", hotel_id AS "hotelId", reference, amount, currency`,
      [seenBefore, limit, [...ours]],
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
