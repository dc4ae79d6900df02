import { type Executor, notifyAtCommit } from '../infra/db/database.ts';
import type { WritePart } from '../infra/db/write-part.ts';
import type { Language, MessageKind, MessageStatus, StaffMessageKind } from './message-kinds.ts';

/** A message as queued: whom, what, in which language, and when it may go (null: at once). */
export interface NewMessage {
  publicId: string;
  reservationId: number;
  hotelId: string;
  kind: MessageKind;
  automatic: boolean;
  /** Comes of a guest's own request: counts against the address's daily cap (API.md 10). */
  byGuest?: boolean;
  to: string;
  language: Language;
  data: Record<string, unknown>;
  sendAfter: Date | null;
}

/** One row of `guest_messages` (migration 030), the messages' outbox. */
export interface MessageRow extends Omit<NewMessage, 'sendAfter'> {
  id: number;
  status: MessageStatus;
  sendAfter: Date;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** Where a scheduled invitation moves when the stay or the guest's address changes. */
export interface InvitationChange {
  sendAfter: Date;
  to: string;
  language: Language;
}

/** The columns a message row is read with (`toMessageRow`). */
export const MESSAGE_COLUMNS = `id, public_id, reservation_id, hotel_id, kind, automatic, recipient, language, data, status,
  send_after, attempts, last_error, created_at, sent_at`;

export function toMessageRow(r: Record<string, unknown>): MessageRow {
  return {
    id: Number(r.id),
    publicId: r.public_id as string,
    reservationId: Number(r.reservation_id),
    hotelId: r.hotel_id as string,
    kind: r.kind as MessageKind,
    automatic: r.automatic as boolean,
    to: r.recipient as string,
    language: r.language as Language,
    data: r.data as Record<string, unknown>,
    status: r.status as MessageStatus,
    sendAfter: r.send_after as Date,
    attempts: r.attempts as number,
    lastError: (r.last_error as string | null) ?? null,
    createdAt: r.created_at as Date,
    sentAt: (r.sent_at as Date | null) ?? null,
  };
}

/** The columns of `messages` as the unnest of `queue` and `queuePart` gives them, in this order. */
const queuedArrays = (messages: readonly NewMessage[]) => [
  messages.map((m) => m.publicId),
  messages.map((m) => m.reservationId),
  messages.map((m) => m.hotelId),
  messages.map((m) => m.kind),
  messages.map((m) => m.automatic),
  messages.map((m) => m.to),
  messages.map((m) => m.language),
  messages.map((m) => JSON.stringify(m.data)),
  messages.map((m) => m.sendAfter?.toISOString() ?? null),
];

export const messageRepository = {
  /**
   * The messages of one new reservation (its hotel `hotelId`: none has been queued for it yet, so
   * no invitation to move or drop), as a write for the statement of its event to carry: the same
   * rows `queue` inserts. The caller notifies the workers (nothing tells it how many were written).
   */
  queuePart(hotelId: string, messages: readonly NewMessage[]): WritePart {
    return {
      sql: `INSERT INTO guest_messages (public_id, reservation_id, hotel_id, kind, automatic, recipient, language,
                                    data, send_after, by_guest)
         SELECT q.public_id, q.reservation_id, q.hotel_id, q.kind, q.automatic, q.recipient, q.language,
                q.data::jsonb, coalesce(q.send_after, now()), q.by_guest
           FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::boolean[], $6::text[], $7::text[],
                       $8::text[], $9::timestamptz[], $10::boolean[])
             AS q(public_id, reservation_id, hotel_id, kind, automatic, recipient, language, data, send_after,
                  by_guest)
          WHERE q.hotel_id = $11
         ON CONFLICT (hotel_id, reservation_id) WHERE kind = 'checkin_invitation' AND automatic DO NOTHING`,
      values: [...queuedArrays(messages), messages.map((m) => m.byGuest === true), hotelId],
    };
  },

  /**
   * Queues messages in the caller's transaction, in one statement (a booking's confirmation and
   * its scheduled invitation; a cancellation's message and the end of its pending invitation). An
   * automatic invitation already there is kept (once). `pendingInvitation` moves (dates or address
   * changed) or drops (`'drop'`: stay cancelled, check-in done) the reservation's scheduled
   * invitation not yet attempted; one already sent stays as it was. With `notifyChannel`, the
   * workers of every process are notified (at commit).
   */
  async queue(
    tx: Executor,
    messages: readonly NewMessage[],
    options: {
      notifyChannel: string | null;
      pendingInvitation?:
        | { hotelId: string; reservationId: number; change: 'drop' | InvitationChange }
        | undefined;
    },
  ): Promise<MessageRow[]> {
    const pending = options.pendingInvitation;
    const change = pending && pending.change !== 'drop' ? pending.change : null;
    const { rows } = await tx.query(
      `WITH dropped AS (
         DELETE FROM guest_messages
          WHERE $10::text = 'drop' AND hotel_id = $16 AND reservation_id = $11 AND kind = 'checkin_invitation' AND automatic
            AND status = 'queued' AND attempts = 0
       ), moved AS (
         UPDATE guest_messages SET send_after = $12, recipient = $13, language = $14
          WHERE $10::text = 'move' AND hotel_id = $16 AND reservation_id = $11 AND kind = 'checkin_invitation' AND automatic
            AND status = 'queued' AND attempts = 0
       ), m AS (
         INSERT INTO guest_messages (public_id, reservation_id, hotel_id, kind, automatic, recipient, language,
                                     data, send_after, by_guest)
         SELECT q.public_id, q.reservation_id, q.hotel_id, q.kind, q.automatic, q.recipient, q.language,
                q.data::jsonb, coalesce(q.send_after, now()), q.by_guest
           FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::boolean[], $6::text[], $7::text[],
                       $8::text[], $9::timestamptz[], $15::boolean[])
             AS q(public_id, reservation_id, hotel_id, kind, automatic, recipient, language, data, send_after,
                  by_guest)
         ON CONFLICT (hotel_id, reservation_id) WHERE kind = 'checkin_invitation' AND automatic DO NOTHING
         RETURNING ${MESSAGE_COLUMNS}
       )
       SELECT m.* FROM m`,
      [
        ...queuedArrays(messages),
        pending ? (pending.change === 'drop' ? 'drop' : 'move') : null,
        pending?.reservationId ?? null,
        change?.sendAfter.toISOString() ?? null,
        change?.to ?? null,
        change?.language ?? null,
        messages.map((m) => m.byGuest === true),
        // The hotel of the invitation moved or dropped: on Citus, its shard alone is asked.
        pending?.hotelId ?? messages[0]?.hotelId ?? null,
      ],
    );
    // Never inside the insert: on Citus a NOTIFY inside a statement routed to a shard cannot be
    // prepared for the two-phase commit. Sent with the COMMIT.
    if (options.notifyChannel !== null && rows.length > 0) {
      await notifyAtCommit(tx, options.notifyChannel, '');
    }
    return rows.map(toMessageRow);
  },

  /**
   * Queues a staff e-mail (API.md 12) in the caller's transaction: no reservation, no hotel
   * (`hotel_id` ''), never counted as a guest's; the workers are notified at commit.
   */
  async queueStaff(
    tx: Executor,
    m: {
      publicId: string;
      kind: StaffMessageKind;
      to: string;
      language: Language;
      data: Record<string, unknown>;
    },
    notifyChannel: string,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO guest_messages (public_id, reservation_id, hotel_id, kind, automatic, recipient, language, data)
       VALUES ($1, NULL, '', $2, false, $3, $4, $5::jsonb)`,
      [m.publicId, m.kind, m.to, m.language, JSON.stringify(m.data)],
    );
    await notifyAtCommit(tx, notifyChannel, '');
  },

  /** A reservation's messages, oldest first (read inside its hotel's rows: one shard on Citus). */
  async listForReservation(db: Executor, hotelId: string, reservationId: number): Promise<MessageRow[]> {
    const { rows } = await db.query(
      `SELECT ${MESSAGE_COLUMNS} FROM guest_messages WHERE hotel_id = $2 AND reservation_id = $1 ORDER BY id`,
      [reservationId, hotelId],
    );
    return rows.map(toMessageRow);
  },

  /** Queued messages (for the start-up warning when nothing can send them). */
  async countQueued(db: Executor): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM guest_messages WHERE status = 'queued'`,
    );
    return rows[0]?.n ?? 0;
  },
};
