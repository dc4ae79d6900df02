import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../infra/clock.ts';
import { randomToken } from '../infra/crypto/tokens.ts';
import { type Executor, isTransaction, notifyAtCommit } from '../infra/db/database.ts';
import { wakeAfterCommit } from '../infra/db/wake.ts';
import type { WritePart } from '../infra/db/write-part.ts';
import { languageOr } from '../infra/i18n/languages.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { reservationView } from '../reservations/reservation.view.ts';
import { invitationDueAt } from './invitation-time.ts';
import { messageCapsRepository } from './message-caps.repository.ts';
import { addressAllows, changeMessage, lockAddresses } from './message-caps.ts';
import { type Language, MESSAGES_CHANNEL, type MessageKind } from './message-kinds.ts';
import {
  type InvitationChange,
  type MessageRow,
  type NewMessage,
  messageRepository as repo,
} from './messages.repository.ts';
import { changesBetween } from './render/changes.ts';
import { maskEmail } from './transport.ts';

/**
 * What queuing a message needs: the invitation's schedule comes from the config and the catalogue.
 * Named here rather than picked from the app's context, so messages depend on those parts only.
 */
export interface OutboxContext {
  config: Config;
  catalog: Pick<CatalogStore, 'get'>;
  clock: Clock;
}

/**
 * A change of a reservation that the guest is told about (API.md 10), raised in its transaction.
 * `byGuest`: the guest's own request through the public API (not the hotel's): its messages count
 * against the address's daily cap (`message-caps.ts`).
 */
export type GuestNews = (
  | { kind: 'created'; row: ReservationRow }
  | { kind: 'modified'; before: ReservationRow; row: ReservationRow }
  | { kind: 'cancelled'; row: ReservationRow }
  | { kind: 'no_show'; row: ReservationRow }
) & { byGuest?: boolean };

/** When a reservation's automatic invitation is due: the hotel's own days, else the service's. */
export function invitationDue(ctx: OutboxContext, row: ReservationRow): Date {
  const hotel = ctx.catalog.get(row.hotelId);
  return invitationDueAt({
    checkIn: row.checkIn,
    timezone: hotel?.timezone ?? 'UTC',
    days: hotel?.checkinInviteDays ?? ctx.config.checkinInviteDays,
    time: ctx.config.checkinInviteTime,
    now: ctx.clock.now(),
  });
}

/** A message of `row` to queue: its kind, what it tells, and when it is due (null = now). */
interface Queued {
  kind: MessageKind;
  data: Record<string, unknown>;
  automatic?: boolean;
  sendAfter?: Date | null;
  /** Counts against the address's daily cap. */
  byGuest?: boolean;
  /** Another address than the reservation's (the notice to a previous address), in its language. */
  to?: string;
  language?: Language;
}

/**
 * Queues messages of one reservation in `tx` (the transaction of the change that causes them), and
 * moves or drops its scheduled invitation, in one statement. Messages due now wake the workers:
 * the other processes' by the notification (sent at commit), this one's at once after the commit;
 * a message due later is found by the workers' poll.
 */
export async function queueMessages(
  tx: Executor,
  row: ReservationRow,
  messages: Queued[],
  pendingInvitation?: 'drop' | InvitationChange,
): Promise<MessageRow[]> {
  const dueNow = messages.some((m) => !m.sendAfter);
  const queued = await repo.queue(
    tx,
    messages.map((m) => newMessage(row, m)),
    {
      notifyChannel: dueNow ? MESSAGES_CHANNEL : null,
      pendingInvitation: pendingInvitation
        ? { hotelId: row.hotelId, reservationId: row.id, change: pendingInvitation }
        : undefined,
    },
  );
  if (dueNow && queued.length > 0 && isTransaction(tx)) wakeAfterCommit(tx, MESSAGES_CHANNEL);
  return queued;
}

function newMessage(row: ReservationRow, m: Queued): NewMessage {
  return {
    publicId: randomToken('msg_', 16),
    reservationId: row.id,
    hotelId: row.hotelId,
    kind: m.kind,
    automatic: m.automatic ?? true,
    byGuest: m.byGuest ?? false,
    to: m.to ?? row.guest.email,
    language: m.language ?? languageOr(row.guest.language),
    data: { code: row.code, ...m.data },
    sendAfter: m.sendAfter ?? null,
  };
}

/**
 * What a new reservation tells its guest (API.md 10): the confirmation (within the address's
 * daily cap when the guest booked) and the check-in invitation, as a write for the statement of
 * the reservation's event to carry (`recordEvent(tx, event, [part])`), in the booking's
 * transaction: one round trip less than `tellGuest`'s own statement. The cap's lock and count run
 * first. Messages due now wake the workers at commit.
 */
export async function creationMessages(
  tx: Executor,
  ctx: OutboxContext,
  row: ReservationRow,
  byGuest: boolean,
): Promise<WritePart> {
  const confirm = await addressAllows(tx, row.hotelId, row.guest.email, byGuest);
  const messages: Queued[] = [
    ...(confirm
      ? [{ kind: 'booking_confirmation' as const, data: { reservation: reservationView(row) }, byGuest }]
      : []),
    { kind: 'checkin_invitation', data: {}, sendAfter: invitationDue(ctx, row) },
  ];
  // A new reservation has no invitation yet: every message is written, so the workers of every
  // process are told whenever one is due now (as `queueMessages` does once it has written them).
  if (messages.some((m) => !m.sendAfter)) {
    await notifyAtCommit(tx, MESSAGES_CHANNEL, '');
    if (isTransaction(tx)) wakeAfterCommit(tx, MESSAGES_CHANNEL);
  }
  return repo.queuePart(
    row.hotelId,
    messages.map((m) => newMessage(row, m)),
  );
}

/**
 * Records what the guest is to be told of a change, in the change's transaction (the outbox of
 * API.md 10): both commit or neither does. Each message keeps the reservation as it stood then.
 */
export async function tellGuest(tx: Executor, ctx: OutboxContext, news: GuestNews): Promise<void> {
  const { row } = news;
  const byGuest = news.byGuest === true;
  const reservation = reservationView(row);
  switch (news.kind) {
    case 'created': {
      const { sql, values } = await creationMessages(tx, ctx, row, byGuest);
      await tx.query(sql, values);
      return;
    }
    case 'modified': {
      const previous = reservationView(news.before);
      const formerAddress = news.before.guest.email;
      const addressMoved = formerAddress.toLowerCase() !== row.guest.email.toLowerCase();
      if (byGuest) await lockAddresses(tx, row.hotelId, [formerAddress, row.guest.email]);
      const messages: Queued[] = [];
      // The hotel's own notes and bookkeeping are no news to the guest.
      if (changesBetween(previous, reservation).length > 0) {
        const change = await changeMessage(tx, row, { reservation, previous }, byGuest);
        if (change) messages.push({ kind: 'booking_modified', ...change, byGuest });
      }
      // The address it leaves is told where its messages go now (masked), and nothing else.
      if (addressMoved && (await addressAllows(tx, row.hotelId, formerAddress, byGuest))) {
        messages.push({
          kind: 'booking_modified',
          data: { reservation: previous, addressChanged: true, newAddress: maskEmail(row.guest.email) },
          to: formerAddress,
          language: languageOr(news.before.guest.language),
          byGuest,
        });
      }
      const invitation = {
        sendAfter: invitationDue(ctx, row),
        to: row.guest.email,
        language: languageOr(row.guest.language),
      };
      await queueMessages(tx, row, messages, invitation);
      return;
    }
    case 'cancelled':
    case 'no_show': {
      // A change held back to the end of the hour would tell a stay that is no more.
      await messageCapsRepository.dropHeld(tx, row.hotelId, row.id);
      const told = await addressAllows(tx, row.hotelId, row.guest.email, byGuest);
      const data = { reservation, noShow: news.kind === 'no_show' };
      await queueMessages(tx, row, told ? [{ kind: 'booking_cancelled', data, byGuest }] : [], 'drop');
      return;
    }
  }
}

/** The check-in is completed (API.md 10): the guests and what was paid; no invitation after it. */
export async function tellGuestCheckinCompleted(
  tx: Executor,
  row: ReservationRow,
  guests: Array<{ firstName: string; lastName: string }>,
): Promise<void> {
  await queueMessages(
    tx,
    row,
    [{ kind: 'checkin_completed', data: { reservation: reservationView(row), guests } }],
    'drop',
  );
}
