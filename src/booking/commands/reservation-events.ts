import type { EventType } from '../../events/event-types.ts';
import { recordEvent } from '../../events/record-event.ts';
import type { Executor } from '../../infra/db/database.ts';
import type { WritePart } from '../../infra/db/write-part.ts';
import { type AuditScope, auditPart } from '../../operator-access/audit-trail.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { operatorReservationView } from '../../reservations/reservation.view.ts';
import type { MoneyMoved } from './reservation-payments.ts';

/** What the audit trail shows of a reservation change (API.md 12): the fields people act on. */
function auditedFields(row: ReservationRow): Record<string, unknown> {
  return {
    status: row.status,
    stayStatus: row.stayStatus,
    checkIn: row.checkIn,
    checkOut: row.checkOut,
    rooms: row.rooms,
    adults: row.stay.adults,
    children: row.stay.children,
    roomTypeId: row.roomTypeId,
    ratePlanId: row.ratePlanId,
    services: [...row.stay.services].sort(),
    total: { amount: row.totalAmount, currency: row.currency },
    paid: { amount: row.paidAmount, currency: row.currency },
    'guest.firstName': row.guest.firstName,
    'guest.lastName': row.guest.lastName,
    'guest.email': row.guest.email,
    'guest.phone': row.guest.phone ?? null,
    specialRequests: row.specialRequests,
    internalNotes: row.internalNotes,
    roomNumbers: row.roomNumbers,
    cancellationFee: row.cancellation?.fee ?? null,
  };
}

/**
 * A reservation event and its audit entry (API.md 12), in the command's transaction and in one
 * statement, carrying the reservation as the hotel sees it; the entry holds the fields that changed
 * since `before` (none for a creation). A guest acting on their own reservation is the entry's
 * actor, named by its code; else `scope`'s. `alongside`: other writes of the change for the same
 * statement.
 */
export async function recordReservationEvent(
  tx: Executor,
  scope: AuditScope,
  type: EventType,
  row: ReservationRow,
  before: ReservationRow | null,
  by?: { kind: 'guest' | 'operator' },
  alongside: readonly WritePart[] = [],
) {
  const after = auditedFields(row);
  const was = before === null ? null : auditedFields(before);
  const audit = auditPart(scope, {
    hotelIds: [row.hotelId],
    action: type,
    target: { type: 'reservation', id: row.code },
    ...(was === null
      ? { details: { checkIn: row.checkIn, checkOut: row.checkOut, rooms: row.rooms, source: row.source } }
      : {
          changes: Object.fromEntries(
            Object.keys(after).map((f) => [f, [was[f], after[f]]] as [string, [unknown, unknown]]),
          ),
        }),
    ...(by?.kind === 'guest' ? { actor: { type: 'guest', id: row.code, name: 'Guest' } } : {}),
  });
  await recordEvent(tx, { type, hotelId: row.hotelId, data: { reservation: operatorReservationView(row) } }, [
    audit,
    ...alongside,
  ]);
}

/** The `payment.*` events of the money a command moved, carrying the reservation as it ended. */
export async function recordPaymentEvents(tx: Executor, row: ReservationRow, moved: readonly MoneyMoved[]) {
  for (const m of moved) {
    await recordEvent(tx, {
      type: m.kind === 'charge' ? 'payment.succeeded' : 'payment.refunded',
      hotelId: row.hotelId,
      data: {
        reservation: operatorReservationView(row),
        payment: { amount: { amount: m.amount, currency: row.currency }, kind: m.kind, purpose: m.purpose },
      },
    });
  }
}
