import type { Executor } from '../infra/db/database.ts';

/** One movement of money for a reservation, as kept in the `payments` ledger. */
export interface PaymentEntry {
  reservationId: number;
  /** The reservation's hotel when the caller knows it: the insert then reads one shard on Citus. */
  hotelId?: string | undefined;
  kind: 'charge' | 'refund' | 'dispute';
  purpose: PaymentPurpose;
  amount: number;
  currency: string;
  provider: string;
  providerRef: string;
  brand?: string | undefined;
  last4?: string | undefined;
  /** A refund not yet made at the provider (it is, after the commit): see migration 040. */
  status?: 'pending' | 'succeeded' | 'failed';
  /** The charge a refund or dispute belongs to. */
  chargeRef?: string | null;
}

export type PaymentPurpose =
  | 'booking'
  | 'modification'
  | 'cancellation'
  | 'checkin'
  | 'no_show'
  /** The balance of a deposit plan, charged to the card on file when due (API.md 14.2). */
  | 'balance'
  /** The desk's charge of the card on file (`charge-card`, API.md 14.2). */
  | 'card_on_file'
  /** Made at the provider (a refund from Stripe's dashboard, a dispute): reported by its webhook. */
  | 'provider';

/** A refund waiting for the provider (or refused by it), with what is needed to try it again. */
export interface PendingRefund {
  id: number;
  reservationId: number;
  amount: number;
  currency: string;
  provider: string;
  providerRef: string;
  chargeRef: string | null;
  purpose: PaymentPurpose;
  attempts: number;
}

const PENDING_COLUMNS = `id, reservation_id AS "reservationId", amount, currency, provider,
  provider_ref AS "providerRef", charge_ref AS "chargeRef", purpose, attempts`;

/** The `payments` table: every charge and refund, written in the transaction of the change it pays for. */
export const paymentLedger = {
  async record(tx: Executor, p: PaymentEntry): Promise<number> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO payments (hotel_id, reservation_id, kind, purpose, amount, currency, provider, provider_ref, brand,
                             last4, status, charge_ref, next_attempt_at)
       ${
         // With the hotel, plain values (one shard on Citus, where an INSERT … SELECT asks every
         // shard); without it, the hotel read from the reservation.
         p.hotelId === undefined
           ? "SELECT r.hotel_id, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $10 = 'pending' THEN now() END FROM reservations r WHERE r.id = $1"
           : "VALUES ($12, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $10 = 'pending' THEN now() END)"
       }
       RETURNING id`,
      [
        p.reservationId,
        p.kind,
        p.purpose,
        p.amount,
        p.currency,
        p.provider,
        p.providerRef,
        p.brand ?? null,
        p.last4 ?? null,
        p.status ?? 'succeeded',
        p.chargeRef ?? null,
        ...(p.hotelId === undefined ? [] : [p.hotelId]),
      ],
    );
    return Number(rows[0]?.id);
  },

  /**
   * A reservation's card money as its folio shows it (API.md 13): charges and the refunds made or on
   * their way, oldest first; refused refunds and disputes (no money moved by Innkeep) left out.
   */
  async ofReservation(
    ex: Executor,
    reservationId: number,
  ): Promise<{ id: number; kind: 'charge' | 'refund'; amount: number; providerRef: string; at: Date }[]> {
    const { rows } = await ex.query<{
      id: number;
      kind: 'charge' | 'refund';
      amount: number;
      providerRef: string;
      at: Date;
    }>(
      `SELECT id, kind, amount, provider_ref AS "providerRef", created_at AS at FROM payments
       WHERE reservation_id = $1 AND kind IN ('charge', 'refund') AND status <> 'failed' ORDER BY id`,
      [reservationId],
    );
    return rows.map((r) => ({ ...r, id: Number(r.id), amount: Number(r.amount) }));
  },

  /** The reservation a provider's charge paid for, if any. */
  async chargeOwner(
    ex: Executor,
    provider: string,
    providerRef: string,
  ): Promise<{ reservationId: number; hotelId: string; amount: number } | null> {
    const { rows } = await ex.query<{ reservationId: number; hotelId: string; amount: number }>(
      `SELECT reservation_id AS "reservationId", hotel_id AS "hotelId", amount FROM payments
       WHERE provider = $1 AND provider_ref = $2 AND kind = 'charge'`,
      [provider, providerRef],
    );
    return rows[0] ?? null;
  },

  /** A reservation's charges with what is left to refund of each (refunds pending or made count). */
  async refundableCharges(
    ex: Executor,
    reservationId: number,
  ): Promise<{ providerRef: string; provider: string; left: number }[]> {
    const { rows } = await ex.query<{ providerRef: string; provider: string; left: number }>(
      `SELECT c.provider_ref AS "providerRef", c.provider,
              c.amount - COALESCE((SELECT sum(r.amount) FROM payments r
                 WHERE r.hotel_id = c.hotel_id AND r.kind = 'refund' AND r.charge_ref = c.provider_ref
                   AND r.status <> 'failed'), 0) AS "left"
       FROM payments c WHERE c.reservation_id = $1 AND c.kind = 'charge'
       ORDER BY c.id DESC`,
      [reservationId],
    );
    return rows.map((r) => ({ ...r, left: Number(r.left) })).filter((r) => r.left > 0);
  },

  /** Refunds of one charge that are made or on their way (not the refused ones). */
  async refundedOf(ex: Executor, chargeRef: string): Promise<number> {
    const { rows } = await ex.query<{ total: number | null }>(
      `SELECT sum(amount) AS total FROM payments WHERE kind = 'refund' AND charge_ref = $1 AND status <> 'failed'`,
      [chargeRef],
    );
    return Number(rows[0]?.total ?? 0);
  },

  /**
   * Claims one pending refund for an attempt: its next attempt moves `leaseMs` ahead, so no other
   * process attempts it meanwhile, and a process that dies mid-attempt leaves it to be tried again.
   * No lock is held while the provider answers.
   */
  async claimPending(ex: Executor, id: number, now: Date, leaseMs: number): Promise<PendingRefund | null> {
    const { rows } = await ex.query<PendingRefund>(
      `UPDATE payments SET next_attempt_at = $3
       WHERE id = $1 AND status = 'pending' AND next_attempt_at <= $2
       RETURNING ${PENDING_COLUMNS}`,
      [id, now, new Date(now.getTime() + leaseMs)],
    );
    return rows[0] ? { ...rows[0], id: Number(rows[0].id), amount: Number(rows[0].amount) } : null;
  },

  /**
   * Claims up to `limit` pending refunds whose next attempt is due, oldest due first, as
   * `claimPending` claims one: each one's next attempt moves `leaseMs` ahead. Rows another process
   * is claiming are skipped (SKIP LOCKED), so each refund goes to one process.
   */
  async claimDuePending(ex: Executor, now: Date, limit: number, leaseMs: number): Promise<PendingRefund[]> {
    // Hotel by hotel (the hotels with the longest-due refunds first): a locking read stays inside
    // one hotel's rows, which on Citus is one shard (a locking read across shards is refused).
    const hotels = await ex.query<{ hotel_id: string }>(
      `SELECT hotel_id FROM payments WHERE status = 'pending' AND next_attempt_at <= $1
        GROUP BY hotel_id ORDER BY min(next_attempt_at) LIMIT $2`,
      [now, limit],
    );
    const claimed: PendingRefund[] = [];
    for (const { hotel_id: hotelId } of hotels.rows) {
      if (claimed.length >= limit) break;
      const { rows } = await ex.query<PendingRefund>(
        `UPDATE payments SET next_attempt_at = $3
         WHERE hotel_id = $4 AND id IN (
           SELECT id FROM payments WHERE hotel_id = $4 AND status = 'pending' AND next_attempt_at <= $1
            ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING ${PENDING_COLUMNS}`,
        [now, limit - claimed.length, new Date(now.getTime() + leaseMs), hotelId],
      );
      claimed.push(...rows.map((r) => ({ ...r, id: Number(r.id), amount: Number(r.amount) })));
    }
    return claimed;
  },

  /**
   * A pending refund given up for good: `failed`, no further attempt. Null when it is no longer
   * pending (another process settled it meanwhile).
   */
  async failPending(
    tx: Executor,
    id: number,
    error: string,
  ): Promise<{
    reservationId: number;
    amount: number;
    purpose: PaymentPurpose;
    chargeRef: string | null;
  } | null> {
    const { rows } = await tx.query<{
      reservationId: number;
      amount: number;
      purpose: PaymentPurpose;
      chargeRef: string | null;
    }>(
      `UPDATE payments SET status = 'failed', last_error = $2, next_attempt_at = NULL
       WHERE id = $1 AND status = 'pending'
       RETURNING reservation_id AS "reservationId", amount, purpose, charge_ref AS "chargeRef"`,
      [id, error],
    );
    const row = rows[0];
    return row ? { ...row, amount: Number(row.amount) } : null;
  },

  async settleRefund(
    tx: Executor,
    id: number,
    outcome:
      | { status: 'succeeded'; providerRef: string }
      | { status: 'pending'; error: string; nextAttemptAt: Date }
      | { status: 'failed'; error: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE payments SET status = $2, attempts = attempts + 1,
         provider_ref = COALESCE($3, provider_ref), last_error = $4, next_attempt_at = $5
       WHERE id = $1`,
      [
        id,
        outcome.status,
        outcome.status === 'succeeded' ? outcome.providerRef : null,
        outcome.status === 'succeeded' ? null : outcome.error,
        outcome.status === 'pending' ? outcome.nextAttemptAt : null,
      ],
    );
  },
};
