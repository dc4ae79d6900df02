/**
 * The retry schedule of API.md 8.2, shared by webhooks and guest messages (10), in units of the
 * base seconds (`WEBHOOK_RETRY_BASE_SECONDS`, `MAIL_RETRY_BASE_SECONDS`; 60 by default, so these
 * are minutes): 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, then every 12 h until 3 days have passed.
 */
const RETRY_STEPS = [1, 5, 30, 120, 300, 600];
const RETRY_EVERY = 720;
/** After this many units from its creation, a row still not through is given up. */
export const GIVE_UP_AFTER_UNITS = 3 * 24 * 60;

/** The delay before the attempt after the `attempt`-th one failed, in schedule units. */
export function retryDelayUnits(attempt: number): number {
  return RETRY_STEPS[attempt - 1] ?? RETRY_EVERY;
}
