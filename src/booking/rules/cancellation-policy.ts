import type { Hotel, RatePlan } from '../../catalog/catalog.schema.ts';
import { addDays, toRfc3339, zonedInstant } from '../../dates/dates.ts';
import type { Money } from '../../infra/currency.ts';
import { entryOf, newMap } from '../../infra/map-entry.ts';

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
  if (instantOf(policy.freeCancellationUntil) > now.getTime()) return policy;
  return { ...policy, freeCancellationUntil: null };
}

/**
 * The deadlines as RFC 3339 and as instants, remembered (bounded): every offer of a search asks
 * for the same few. By time zone, then days, then check-in: the check-in is the request's own
 * string, and looking it up as it is costs less than building a key of the three to hash (a
 * profile of search had that key's lookup and the deadline's `Date.parse` at 3 % together).
 */
const deadlines = new Map<string, Map<number, Map<string, string>>>();
const instants = new Map<string, number>();
/** Deadlines remembered (several check-ins and days may share one deadline, hence one instant). */
let remembered = 0;
const REMEMBERED = 10_000;

function freeCancellationUntil(checkIn: string, days: number, timezone: string): string {
  const byCheckIn = entryOf(entryOf(deadlines, timezone, newMap), days, newMap);
  const known = byCheckIn.get(checkIn);
  if (known !== undefined) return known;
  const instant = zonedInstant(addDays(checkIn, -days), '00:00', timezone);
  const deadline = toRfc3339(instant);
  if (remembered >= REMEMBERED) {
    deadlines.clear();
    instants.clear();
    remembered = 0;
    return deadline;
  }
  byCheckIn.set(checkIn, deadline);
  instants.set(deadline, instant.getTime());
  remembered++;
  return deadline;
}

/** A deadline's instant (ms): remembered for those made here, parsed for others (a stored quote's). */
function instantOf(deadline: string): number {
  return instants.get(deadline) ?? Date.parse(deadline);
}
