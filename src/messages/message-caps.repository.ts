import { type Executor, isTransaction, runsAlone } from '../infra/db/database.ts';

/** A reservation's `booking_modified` messages of the last hour (the notices to a previous address aside). */
export interface RecentChanges {
  count: number;
  /** When the oldest of them was queued (null: none). */
  oldest: Date | null;
  /** The one held back to the end of the hour and not yet attempted, if any: later changes join it. */
  pending: { id: number; data: Record<string, unknown>; to: string } | null;
}

// Per hotel (issue 37): a hotel's guest asks that hotel for mail; on Citus the count reads one shard.
const LOCK_ADDRESS = `SELECT pg_advisory_xact_lock(hashtext('innkeep:mail-to:' || $2 || ':' || lower($1)))`;
const COUNT_BY_GUEST = `SELECT count(*)::int AS n FROM guest_messages
  WHERE hotel_id = $3 AND by_guest AND lower(recipient) = lower($1)
    AND created_at > now() - make_interval(secs => $2)`;

/** The SQL of the caps on guest messages (API.md 10; migration 075), in the change's transaction. */
export const messageCapsRepository = {
  /**
   * Serialises, until the transaction ends, every change of the hotel that mails `address`
   * (case-insensitive): its count and its insert then hold across processes. Callers lock several
   * addresses in sorted order, so two changes never wait for each other's.
   */
  async lockAddress(tx: Executor, hotelId: string, address: string): Promise<void> {
    // The embedded engine runs one transaction at a time: no other change counts meanwhile.
    if (runsAlone(tx)) return;
    await tx.query(LOCK_ADDRESS, [address, hotelId]);
  },

  /**
   * `lockAddress`, then `countByGuest` once the lock is granted (a statement of its own, so its
   * snapshot sees every message committed before: the count holds across processes), in one
   * round trip (`Transaction.batch`).
   */
  async lockAndCountByGuest(
    tx: Executor,
    hotelId: string,
    address: string,
    seconds: number,
  ): Promise<number> {
    if (!isTransaction(tx)) {
      await messageCapsRepository.lockAddress(tx, hotelId, address);
      return messageCapsRepository.countByGuest(tx, hotelId, address, seconds);
    }
    const count = { sql: COUNT_BY_GUEST, params: [address, seconds, hotelId] };
    // The embedded engine runs one transaction at a time: no lock to take (lockAddress).
    const { rows } = await tx.batch<{ n: number }>(
      runsAlone(tx) ? [count] : [{ sql: LOCK_ADDRESS, params: [address, hotelId] }, count],
    );
    return rows[0]?.n ?? 0;
  },

  /** The hotel's messages to `address` queued in the last `seconds` because of guests' own requests. */
  async countByGuest(tx: Executor, hotelId: string, address: string, seconds: number): Promise<number> {
    const { rows } = await tx.query<{ n: number }>(COUNT_BY_GUEST, [address, seconds, hotelId]);
    return rows[0]?.n ?? 0;
  },

  /** The reservation's change messages of the last `seconds` (its row is locked by the change). */
  async recentChanges(
    tx: Executor,
    hotelId: string,
    reservationId: number,
    seconds: number,
  ): Promise<RecentChanges> {
    const { rows } = await tx.query<{
      id: number;
      data: Record<string, unknown>;
      recipient: string;
      created_at: Date;
      pending: boolean;
    }>(
      `SELECT id, data, recipient, created_at,
              (status = 'queued' AND attempts = 0 AND send_after > now()) AS pending
         FROM guest_messages
        WHERE hotel_id = $3 AND reservation_id = $1 AND kind = 'booking_modified' AND NOT (data ? 'addressChanged')
          AND (created_at > now() - make_interval(secs => $2)
               OR (status = 'queued' AND attempts = 0 AND send_after > now()))
        ORDER BY created_at, id`,
      [reservationId, seconds, hotelId],
    );
    const pending = rows.find((r) => r.pending);
    return {
      count: rows.length,
      oldest: rows[0]?.created_at ?? null,
      pending: pending ? { id: Number(pending.id), data: pending.data, to: pending.recipient } : null,
    };
  },

  /** A held-back change message now tells the newest state, to the reservation's current address. */
  async fold(
    tx: Executor,
    hotelId: string,
    id: number,
    change: { data: Record<string, unknown>; to: string; language: string; byGuest: boolean },
  ): Promise<void> {
    await tx.query(
      `UPDATE guest_messages SET data = $2::jsonb, recipient = $3, language = $4, by_guest = by_guest OR $5
        WHERE hotel_id = $6 AND id = $1 AND status = 'queued' AND attempts = 0`,
      [id, JSON.stringify(change.data), change.to, change.language, change.byGuest, hotelId],
    );
  },

  /** Drops the reservation's held-back change message, if any (the stay is cancelled: old news). */
  async dropHeld(tx: Executor, hotelId: string, reservationId: number): Promise<void> {
    await tx.query(
      `DELETE FROM guest_messages
        WHERE hotel_id = $2 AND reservation_id = $1 AND kind = 'booking_modified' AND status = 'queued'
          AND attempts = 0 AND send_after > now()`,
      [reservationId, hotelId],
    );
  },

  /** Drops a held-back change message (its new address is over its cap). */
  async drop(tx: Executor, hotelId: string, id: number): Promise<void> {
    await tx.query(
      `DELETE FROM guest_messages WHERE hotel_id = $2 AND id = $1 AND status = 'queued' AND attempts = 0`,
      [id, hotelId],
    );
  },
};
