import { addDays, toRfc3339, zonedInstant } from '../../dates/dates.ts';
import type { ScheduledPayment } from '../../reservations/reservation.row.ts';

/** What a `deposit` rate plan takes at booking (API.md 14.2): a percent of the total, or the first n nights. */
export interface DepositTerms {
  percent?: number | undefined;
  nights?: number | undefined;
}

/**
 * The deposit of a stay: `percent` of the total rounded half up to the minor unit, or the price of
 * the first `nights` nights (their room prices); never more than the total.
 */
export function depositAmount(terms: DepositTerms, total: number, nightly: readonly number[]): number {
  let amount = 0;
  if (terms.percent !== undefined) amount = Math.floor((total * terms.percent + 50) / 100);
  else if (terms.nights !== undefined) {
    amount =
      terms.nights >= nightly.length ? total : nightly.slice(0, terms.nights).reduce((a, b) => a + b, 0);
  }
  return Math.min(Math.max(amount, 0), total);
}

/**
 * When the balance is charged to the card on file: `balanceDueDays` before check-in at `time`
 * (CHECKIN_INVITE_TIME) on the hotel's clock; null when it is paid at the hotel (0 days).
 */
export function balanceDueAt(input: {
  checkIn: string;
  balanceDueDays: number;
  timezone: string;
  time: string;
}): Date | null {
  if (input.balanceDueDays <= 0) return null;
  return zonedInstant(addDays(input.checkIn, -input.balanceDueDays), input.time, input.timezone);
}

export interface ScheduleInput {
  terms: DepositTerms;
  balanceDueDays: number;
  total: number;
  nightly: readonly number[];
  checkIn: string;
  timezone: string;
  /** CHECKIN_INVITE_TIME: the hotel-local time of day the balance is charged. */
  chargeTime: string;
  /** The hotel's check-in time: when a balance paid at the hotel falls due. */
  checkInTime: string;
  now: Date;
}

/**
 * A booking's schedule (API.md 14.2): the deposit, paid now, and the balance, charged to the card on
 * file when due (`at_hotel` when `balanceDueDays` is 0). A stay booked after its balance's due time
 * pays everything now, as does a deposit that covers the whole total. `chargeNow` is what the booking
 * charges; `balanceDue` is when the worker charges the rest (null: never by itself).
 */
export function bookingSchedule(input: ScheduleInput): {
  chargeNow: number;
  schedule: ScheduledPayment[];
  balanceDue: Date | null;
} {
  const now = toRfc3339(input.now);
  const due = balanceDueAt({
    checkIn: input.checkIn,
    balanceDueDays: input.balanceDueDays,
    timezone: input.timezone,
    time: input.chargeTime,
  });
  const late = due !== null && due.getTime() <= input.now.getTime();
  const deposit = late ? input.total : depositAmount(input.terms, input.total, input.nightly);
  const schedule: ScheduledPayment[] = [
    { kind: 'deposit', dueAt: now, amount: deposit, status: 'paid', collection: 'card_on_file' },
  ];
  const balance = input.total - deposit;
  if (balance <= 0) return { chargeNow: deposit, schedule, balanceDue: null };
  schedule.push(balanceItem(input, balance, due));
  return { chargeNow: deposit, schedule, balanceDue: due };
}

function balanceItem(
  input: Pick<ScheduleInput, 'checkIn' | 'checkInTime' | 'timezone'>,
  amount: number,
  due: Date | null,
): ScheduledPayment {
  return {
    kind: 'balance',
    dueAt: toRfc3339(due ?? zonedInstant(input.checkIn, input.checkInTime, input.timezone)),
    amount,
    status: 'scheduled',
    collection: due ? 'card_on_file' : 'at_hotel',
  };
}

/**
 * The schedule after a change of the stay (docs/api.md §13.2.2): the deposit stays what was paid; the
 * balance becomes the new total less what is paid, due again `balanceDueDays` before the (new)
 * check-in, or at once when that moment has passed. Nothing left to pay: the balance is dropped
 * (or stays as paid when it was). `balanceDue` = when the worker charges it (null: never).
 */
export function rescheduledBalance(
  previous: readonly ScheduledPayment[],
  input: Omit<ScheduleInput, 'total' | 'nightly' | 'terms'> & { total: number; paid: number },
): { schedule: ScheduledPayment[]; balanceDue: Date | null } {
  const kept = previous.filter((p) => p.kind === 'deposit' || p.status === 'paid');
  const left = input.total - input.paid;
  if (left <= 0) return { schedule: kept, balanceDue: null };
  const due = balanceDueAt({
    checkIn: input.checkIn,
    balanceDueDays: input.balanceDueDays,
    timezone: input.timezone,
    time: input.chargeTime,
  });
  const chargeAt = due && due.getTime() < input.now.getTime() ? input.now : due;
  return { schedule: [...kept, balanceItem(input, left, chargeAt)], balanceDue: chargeAt };
}

/** The schedule once the balance is settled some way: its open payments marked `status`. */
export function settleOpen(
  schedule: readonly ScheduledPayment[],
  status: 'paid' | 'failed' | 'cancelled',
): ScheduledPayment[] {
  return schedule.map((p) => (p.status === 'scheduled' || p.status === 'failed' ? { ...p, status } : p));
}
