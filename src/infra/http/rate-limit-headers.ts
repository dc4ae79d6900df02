import { AppError } from './problems.ts';

/**
 * The IETF rate-limit headers (draft-ietf-httpapi-ratelimit-headers-09 and later), one list item
 * per limit so each limit reports its own numbers:
 *   RateLimit-Policy: "general";q=100;w=60, "checkin-proof";q=20;w=900
 *   RateLimit: "general";r=21;t=42, "checkin-proof";r=0;t=817
 * `q` is the quota, `w` the window (s), `r` what is left, `t` seconds until the quota resets.
 */
export interface LimitState {
  policy: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

export function policyItem(s: LimitState): string {
  return `"${s.policy}";q=${s.quota};w=${s.windowSeconds}`;
}

export function stateItem(s: LimitState): string {
  return `"${s.policy}";r=${Math.max(0, s.remaining)};t=${Math.max(0, Math.ceil(s.resetSeconds))}`;
}

/** Headers for a feature's own limit (merged with the general limit's by the rate-limit plugin). */
export function limitHeaders(s: LimitState): Record<string, string> {
  return { 'ratelimit-policy': policyItem(s), ratelimit: stateItem(s) };
}

/**
 * A fixed-window limit that counted `failures` attempts in the window starting at `windowStart`:
 * `null` while within `quota`, else the `429 rate_limited` to throw, with `Retry-After` and the
 * limit's own `RateLimit-Policy` / `RateLimit` headers.
 */
export function windowLimitExceeded(
  policy: string,
  quota: number,
  windowSeconds: number,
  counted: { failures: number; windowStart: Date },
  now: Date,
  detail: (retryAfterSeconds: number) => string,
): AppError | null {
  if (counted.failures <= quota) return null;
  const retryAfter = Math.max(
    1,
    Math.ceil((counted.windowStart.getTime() + windowSeconds * 1000 - now.getTime()) / 1000),
  );
  return new AppError('rate_limited', detail(retryAfter), {
    headers: {
      'retry-after': String(retryAfter),
      ...limitHeaders({ policy, quota, windowSeconds, remaining: 0, resetSeconds: retryAfter }),
    },
  });
}
