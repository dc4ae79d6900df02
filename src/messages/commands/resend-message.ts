import type { AppContext } from '../../context.ts';
import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { type Audited, recordAudit } from '../../operator-access/audit-trail.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import { reservationView } from '../../reservations/reservation.view.ts';
import type { MessageRow } from '../messages.repository.ts';
import type { ResendRequest } from '../messages.schemas.ts';
import { queueMessages } from '../outbox.ts';
import { type MessagesReader, visibleReservation } from './message-access.ts';

/**
 * Queues a message again at the hotel's request (API.md 10), as the reservation stands now: the
 * confirmation, or the check-in invitation (with the link to its session). Neither for a cancelled
 * reservation (`409 reservation_cancelled`).
 */
export async function resendMessage(
  ctx: Pick<AppContext, 'db'> & Audited,
  code: string,
  body: ResendRequest,
  reader: MessagesReader,
  options: WriteOptions<MessageRow> = {},
): Promise<MessageRow> {
  return ctx.db.transaction(async (tx) => {
    const row = visibleReservation(await reservations.findByCode(tx, code), reader);
    if (row.status === 'cancelled') {
      throw new AppError(
        'reservation_cancelled',
        `Reservation ${row.code} is cancelled; there is nothing to send.`,
      );
    }
    const data = body.kind === 'booking_confirmation' ? { reservation: reservationView(row) } : {};
    const [message] = await queueMessages(tx, row, [{ kind: body.kind, data, automatic: false }]);
    if (!message) throw new Error(`message for ${row.code} not queued`);
    await recordAudit(tx, ctx.audit, {
      hotelIds: [row.hotelId],
      action: 'message.resent',
      target: { type: 'reservation', id: row.code },
      details: { kind: body.kind },
    });
    return finishWrite(tx, message, options);
  });
}
