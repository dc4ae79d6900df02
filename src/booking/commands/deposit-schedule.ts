import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { Config } from '../../config.ts';
import { bookingSchedule, type DepositTerms } from '../../payments/rules/payment-schedule.ts';
import type { ScheduledPayment } from '../../reservations/reservation.row.ts';

/** What a deposit plan's schedule is computed from: the priced stay and its rate plan's terms. */
export interface ScheduledStay {
  ratePlan: { prepayment: string; deposit?: DepositTerms | undefined; balanceDueDays?: number | undefined };
  total: { amount: number };
  nightly: readonly { amount: { amount: number } }[];
  checkIn: string;
}

/**
 * The schedule of a deposit plan's stay booked `now` (payments/rules/payment-schedule.ts), or null
 * for another plan: the quote shows it, the booking takes and schedules it, so both say the same.
 */
export function depositSchedule(
  config: Pick<Config, 'checkinInviteTime'>,
  hotel: Pick<Hotel, 'timezone' | 'checkInTime'>,
  stay: ScheduledStay,
  now: Date,
): ReturnType<typeof bookingSchedule> | null {
  if (stay.ratePlan.prepayment !== 'deposit') return null;
  return bookingSchedule({
    terms: stay.ratePlan.deposit ?? { percent: 100 },
    balanceDueDays: stay.ratePlan.balanceDueDays ?? 0,
    total: stay.total.amount,
    nightly: stay.nightly.map((n) => n.amount.amount),
    checkIn: stay.checkIn,
    timezone: hotel.timezone,
    chargeTime: config.checkinInviteTime,
    checkInTime: hotel.checkInTime,
    now,
  });
}

/** A schedule as a quote shows it: amounts as money, no status (nothing is paid yet). */
export function quotedSchedule(schedule: readonly ScheduledPayment[], currency: string) {
  return schedule.map(({ kind, dueAt, amount, collection }) => ({
    kind,
    dueAt,
    amount: { amount, currency },
    collection,
  }));
}
