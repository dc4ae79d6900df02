import { createHash } from 'node:crypto';
import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { AppContext } from '../../context.ts';
import { hotelToday } from '../../dates/dates.ts';
import type { Executor } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import type { Audited } from '../../operator-access/audit-trail.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { paymentLedger } from '../../payments/payments.repository.ts';
import { reservationRepository } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { reservationNotFound } from '../../reservations/reservation-code.ts';
import { folioLinesRepository } from '../folio-lines.repository.ts';
import { folioPaymentsRepository } from '../folio-payments.repository.ts';
import { type FolioLine, folioLines, hotelVatRate, reservationLines } from '../rules/folio-lines.ts';

/** What the folio commands use of the app. */
export type FolioContext = Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config'>;

/** What a folio command that changes something uses: also who acts, whom its audit entry names. */
export type FolioWriteContext = FolioContext & Audited;

export interface FolioPayment {
  id: string;
  at: Date;
  kind: 'payment' | 'refund';
  method: 'cash' | 'card_terminal' | 'bank_transfer' | 'card';
  amount: number;
  reference: string | null;
}

export interface Folio {
  reservation: ReservationRow;
  hotel: Hotel;
  lines: FolioLine[];
  payments: FolioPayment[];
  total: number;
  paid: number;
}

/**
 * The reservation a folio request names, seen by the key (another hotel's is `404`, as if it did
 * not exist); `forUpdate` locks it, so folio writes of one reservation, and its changes by booking,
 * run one after the other.
 */
export async function reservationFor(
  ex: Executor,
  ctx: FolioContext,
  principal: Principal,
  code: string,
  options: { forUpdate?: boolean } = {},
): Promise<{ row: ReservationRow; hotel: Hotel }> {
  const row = await reservationRepository.findByCode(ex, code, options);
  if (!row || (principal.hotelIds !== null && !principal.hotelIds.includes(row.hotelId))) {
    throw reservationNotFound();
  }
  const hotel = ctx.catalog.get(row.hotelId);
  if (!hotel) throw reservationNotFound();
  return { row, hotel };
}

/** A reservation line's id: the same for the same line of the same reservation, stored or not. */
function lineId(row: ReservationRow, sourceKey: string): string {
  const digest = createHash('sha256').update(`${row.hotelId}\u0000${row.code}\u0000${sourceKey}`).digest();
  return `fl_${digest.subarray(0, 12).toString('base64url')}`;
}

/** The folio as it stands (API.md 13): stored lines, the reservation's own, desk and card money. */
export async function folioOf(ex: Executor, row: ReservationRow, hotel: Hotel): Promise<Folio> {
  const [stored, desk, card] = await Promise.all([
    folioLinesRepository.ofReservation(ex, row.hotelId, row.id),
    folioPaymentsRepository.ofReservation(ex, row.hotelId, row.id),
    paymentLedger.ofReservation(ex, row.id),
  ]);
  const cancellation = row.cancellation;
  const derived = reservationLines(
    {
      status: row.status,
      checkIn: row.checkIn,
      lines: row.stay.lines,
      fee: cancellation
        ? {
            amount: cancellation.fee.amount,
            date: hotelToday(hotel.timezone, new Date(cancellation.cancelledAt)),
            noShow: cancellation.reason === 'no_show',
          }
        : null,
    },
    hotelVatRate(hotel.taxes),
    (key) => lineId(row, key),
  );
  const lines = folioLines(stored, derived, (key) => lineId(row, key));
  const payments: FolioPayment[] = [
    ...card.map(
      (p): FolioPayment => ({
        id: `fp_card${p.id}`,
        at: p.at,
        kind: p.kind === 'charge' ? 'payment' : 'refund',
        method: 'card',
        amount: p.amount,
        reference: p.providerRef,
      }),
    ),
    ...desk,
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  const total = lines.filter((l) => !l.voided).reduce((sum, l) => sum + l.amount, 0);
  const paid = payments.reduce((sum, p) => sum + (p.kind === 'payment' ? p.amount : -p.amount), 0);
  return { reservation: row, hotel, lines, payments, total, paid };
}

export function conflict(
  code: 'already_invoiced' | 'nothing_to_invoice' | 'already_corrected',
  detail: string,
) {
  return new AppError(code, detail);
}
