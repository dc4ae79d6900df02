import type { Hotel, RatePlan } from '../../catalog/catalog.schema.ts';
import { addDays, toRfc3339, zonedInstant } from '../../dates/dates.ts';
import type { Money } from '../../infra/currency.ts';

/** A stay's cancellation terms (API.md 6), priced with the stay. */

export type CancellationPolicy = {
  refundable: boolean;
  /** RFC 3339 UTC; null for a non-refundable plan, and once the moment has passed (API.md 6). */
  freeCancellationUntil: string | null;
  penalty: Money;
};

/**
 * Cancellation rule: free until check-in minus freeCancellationDays at 00:00 hotel time; after it
 * the room price of the first penaltyNights nights. A non-refundable plan's penalty is the total.
 */
export function cancellationPolicyFor(
  hotel: Hotel,
  ratePlan: RatePlan,
  checkIn: string,
  nightly: ReadonlyArray<{ amount: Money }>,
  total: number,
): CancellationPolicy {
  const currency = hotel.currency;
  if (!ratePlan.refundable) {
    return { refundable: false, freeCancellationUntil: null, penalty: { amount: total, currency } };
  }
  const penalty = nightly.slice(0, ratePlan.penaltyNights).reduce((a, n) => a + n.amount.amount, 0);
  return {
    refundable: true,
    freeCancellationUntil: freeCancellationUntil(checkIn, ratePlan.freeCancellationDays, hotel.timezone),
    penalty: { amount: penalty, currency },
  };
}

/**
 * Cancellation rule (API.md 6): a free-cancellation moment that has passed by `now` is `null`, so
 * the terms say what cancelling costs from now on (the penalty) instead of a date gone by.
 */
export function policyAsOf(policy: CancellationPolicy, now: Date | undefined): CancellationPolicy {
  if (now === undefined || policy.freeCancellationUntil === null) return policy;
  if (Date.parse(policy.freeCancellationUntil) > now.getTime()) return policy;
  return { ...policy, freeCancellationUntil: null };
}

/** The deadline as RFC 3339, remembered (bounded): every offer of a search asks for the same few. */
const deadlines = new Map<string, string>();
function freeCancellationUntil(checkIn: string, days: number, timezone: string): string {
  const key = `${checkIn} ${days} ${timezone}`;
  const known = deadlines.get(key);
  if (known !== undefined) return known;
  const deadline = toRfc3339(zonedInstant(addDays(checkIn, -days), '00:00', timezone));
  if (deadlines.size >= 10_000) deadlines.clear();
  deadlines.set(key, deadline);
  return deadline;
}
