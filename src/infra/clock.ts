/** Time as a dependency, so tests can move past quote expiry, check-out and retention periods. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
