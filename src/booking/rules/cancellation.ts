import type { CancellationPolicy } from './cancellation-policy.ts';

export type CancellationCharge = { fee: number; refund: number; due: number };

/**
 * Cancellation fee rule (docs/api.md §2.5): nothing before freeCancellationUntil, the plan's penalty from
 * that instant on, the whole total for a non-refundable plan. Paid money above the fee is refunded;
 * a fee above what was paid stays due. Amounts are minor units.
 */
export function cancellationCharge(input: {
  policy: CancellationPolicy;
  total: number;
  paid: number;
  now: Date;
}): CancellationCharge {
  const { policy, total, paid, now } = input;
  const deadline = policy.freeCancellationUntil === null ? null : Date.parse(policy.freeCancellationUntil);
  const free = policy.refundable && deadline !== null && now.getTime() < deadline;
  // A non-refundable plan's penalty is its total; the reservation's current total is authoritative.
  const fee = free ? 0 : policy.refundable ? policy.penalty.amount : total;
  return { fee, refund: Math.max(0, paid - fee), due: Math.max(0, fee - paid) };
}
