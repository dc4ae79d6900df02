import type { AppContext } from '../../context.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import { type MessageRow, messageRepository as repo } from '../messages.repository.ts';
import { type MessagesReader, visibleReservation } from './message-access.ts';

/** A reservation's messages, oldest first (API.md 10); a reservation outside the key's hotels is 404. */
export async function listMessages(
  ctx: Pick<AppContext, 'db'>,
  code: string,
  reader: MessagesReader,
): Promise<MessageRow[]> {
  const row = visibleReservation(await reservations.findByCode(ctx.db, code), reader);
  return repo.listForReservation(ctx.db, row.hotelId, row.id);
}
