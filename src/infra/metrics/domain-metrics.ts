/**
 * Business events counted for `GET /metrics`. The services call these plain functions; each app's
 * metrics registry reads the totals when scraped, so the counters need no access to the app.
 * Totals are per process (one app per process in production), labelled by hotel id, which the
 * catalogue bounds.
 */
export type DomainEvent = 'reservation_created' | 'reservation_cancelled' | 'checkin_completed';

const totals: Record<DomainEvent, Map<string, number>> = {
  reservation_created: new Map(),
  reservation_cancelled: new Map(),
  checkin_completed: new Map(),
};

function count(event: DomainEvent, hotelId: string): void {
  const byHotel = totals[event];
  byHotel.set(hotelId, (byHotel.get(hotelId) ?? 0) + 1);
}

export const domainMetrics = {
  /** A reservation was created (201), not an idempotent replay of one. */
  reservationCreated: (hotelId: string) => count('reservation_created', hotelId),
  /** A confirmed reservation became cancelled (cancelling a cancelled one does not count). */
  reservationCancelled: (hotelId: string) => count('reservation_cancelled', hotelId),
  /** A check-in session reached `completed`. */
  checkinCompleted: (hotelId: string) => count('checkin_completed', hotelId),
  /** The totals so far, per hotel, for the metrics registry. */
  totals(event: DomainEvent): ReadonlyMap<string, number> {
    return totals[event];
  },
};
