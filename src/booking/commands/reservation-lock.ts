import type { Executor } from '../../infra/db/database.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { assertAuthority, assertVersion, notFound } from './authority.ts';
import type { Authority } from './command-context.ts';

/** Finds and locks the reservation for a change, checking the caller's authority (and `If-Match`). */
export async function lockForChange(
  tx: Executor,
  code: string,
  authority: Authority,
  ifMatch: string | undefined,
  { checkVersion = true } = {},
): Promise<ReservationRow> {
  const row = await reservations.findByCode(tx, code, { forUpdate: true });
  if (!row) throw notFound();
  assertAuthority(row, authority);
  if (checkVersion) assertVersion(row, ifMatch);
  return row;
}
