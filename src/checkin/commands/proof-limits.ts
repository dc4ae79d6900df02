import { hashSecret } from '../../infra/crypto/tokens.ts';
import { windowLimitExceeded } from '../../infra/http/rate-limit-headers.ts';
import { proofFailuresRepository as repo } from '../proof-failures.repository.ts';
import type { CheckinContext } from './checkin-context.ts';

/**
 * Counts one proof by last name (or a wrong token) against guessing, without letting one client
 * lock out the others behind the same address (a hotel's Wi-Fi, a website's proxy):
 * - per (address, reservation code), `CHECKIN_PROOF_LIMIT` per window (default 20 / 15 min):
 *   guessing the name of one known code stays slow, and a correct name for that code is refused
 *   too once its limit is reached (otherwise the limit would not limit);
 * - per address, the higher `CHECKIN_PROOF_ADDRESS_LIMIT` (default 200 / 15 min), across codes.
 *   Attempts refused by the first limit do not count here, so hammering one code cannot lock
 *   the address out of the others.
 * A valid access token is never limited (the caller checks it before this). Over a limit it is
 * `rate_limited` with the seconds left in the window; otherwise answers the counters the attempt
 * went to, for `forgiveProofs` once the proof turns out valid.
 *
 * Why guessing stays infeasible at the defaults: a code is 9 Crockford base32 characters,
 * 32^9 = 2^45 ≈ 3.5e13 codes. An address may fail 200 times per 15 min = 19,200 a day. With a
 * million live reservations and the last name always guessed right (a pessimistic bound), one
 * attempt hits with probability 1e6 / 3.5e13 ≈ 2.9e-8: about 3.5e7 attempts expected, 1,800
 * days (≈ 5 years) per address; with 10,000 live reservations, ≈ 500 years. Guessing the name
 * of one known code is capped at 20 tries per 15 min from an address.
 */
export async function countProof(
  ctx: CheckinContext,
  address: string,
  code: string | null,
): Promise<Buffer[]> {
  const { checkinProofLimit, checkinProofAddressLimit, checkinProofWindowSeconds: window } = ctx.config;
  const now = ctx.clock.now();
  const perAddress = hashSecret(`checkin-proof\u0000${address}`);
  const limited = (
    policy: string,
    limit: number,
    counted: { failures: number; windowStart: Date },
    what: string,
  ) => {
    const refusal = windowLimitExceeded(
      policy,
      limit,
      window,
      counted,
      now,
      (s) => `Too many failed attempts ${what}; retry in ${s} s.`,
    );
    if (refusal) throw refusal;
  };
  const addressWhat = 'to find a reservation from this address';
  if (code === null) {
    const counted = await repo.countProofAttempt(ctx.db, perAddress, now, window);
    limited('checkin-proof-address', checkinProofAddressLimit, counted, addressWhat);
    return [perAddress];
  }
  const pair = hashSecret(`checkin-proof\u0000${address}\u0000${code}`);
  const counted = await repo.countProofAttempts(
    ctx.db,
    { first: pair, firstLimit: checkinProofLimit, second: perAddress },
    now,
    window,
  );
  limited('checkin-proof', checkinProofLimit, counted.first, 'for this reservation from this address');
  if (!counted.second) throw new Error('a proof within the first limit was not counted per address');
  limited('checkin-proof-address', checkinProofAddressLimit, counted.second, addressWhat);
  return [pair, perAddress];
}

/** Takes back the attempts of a proof that turned out valid. */
export function forgiveProofs(ctx: CheckinContext, counters: Buffer[]): Promise<void> {
  return repo.forgiveProofAttempts(ctx.db, counters);
}
