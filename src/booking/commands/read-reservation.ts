import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { assertAuthority, notFound } from './authority.ts';
import type { Authority, CommandContext } from './command-context.ts';

/** One reservation, for a caller who may see it: the guest's token (else `403`), a key of its hotel (else `404`). */
export async function readReservation(
  ctx: Pick<CommandContext, 'db'>,
  code: string,
  authority: Authority,
): Promise<ReservationRow> {
  const row = await reservations.findByCode(ctx.db, code);
  if (!row) throw notFound();
  assertAuthority(row, authority);
  return row;
}
