/**
 * The expected wait of a request for the database (load shedding, issue 23.5), and its
 * calibration against what admitted requests then really took.
 *
 * The raw estimate is the work ahead of a new request, drained `max` connections at a time at the
 * recent mean hold time, plus its own checkouts: `(ahead + perRequest) × meanHold ÷ max`, where
 * `ahead` is the checkouts queued or still to be made by the requests in flight. (It used to count
 * the checkouts per request twice, once in `ahead` and once as a factor: three times too long for
 * a booking, which makes three; so a burst the pool drained in under 2 s was shed with
 * `Retry-After` 8–9 s.)
 *
 * The mean hold time is a running mean over checkouts: it lags (a lock held for seconds leaves it
 * high after the lock is gone, and nothing shed makes a checkout to bring it down). So the raw
 * estimate is multiplied by a calibration factor, the running (geometric) mean of actual ÷ raw
 * over admitted requests that expected to wait; and with nothing queued and nothing in flight
 * there is no wait at all: shedding stops as soon as the pressure's requests have drained.
 *
 * The factor only ever lowers the estimate (at most 1). What a request takes is measured from
 * admission to answer, which includes its time on a busy CPU: on a machine short of CPU every
 * request takes longer than the database queue explains, and a factor above 1 shed work the
 * database had room for (seen on the loaded test machine). Lack of CPU is the event-loop check's
 * business; a wait longer than estimated is bounded by each checkout's 5 s timeout.
 */
export interface PoolLoad {
  /** Requests queued for a connection. */
  waiting: number;
  /** The most connections the pool opens. */
  max: number;
  /** Recent mean time a connection is held per checkout (ms). */
  meanHoldMs: number;
}

/** Estimates below this (ms) are all service time and noise: they do not calibrate. */
export const CALIBRATE_FROM_MS = 50;
/** Weight of one request's actual ÷ raw in the calibration (in log space). */
const CALIBRATION_WEIGHT = 0.1;
/** The factor stays within these: one odd request, or many, cannot make the estimate absurd. */
const MIN_FACTOR = 0.1;
const MAX_FACTOR = 1;

export class DbWaitEstimator {
  /** Checkouts a request makes in turn, recently (a booking: its claim, its transaction, ...). */
  checkoutsPerRequest = 1;
  private logFactor = 0;

  /** The calibration factor: how much longer (> 1) or shorter requests took than estimated. */
  get factor(): number {
    return Math.exp(this.logFactor);
  }

  /** The uncalibrated wait (ms) of a request arriving now with `inFlight` admitted before it. */
  raw(pool: PoolLoad, inFlight: number): number {
    const ahead = Math.max(pool.waiting, inFlight * this.checkoutsPerRequest);
    if (ahead === 0) return 0;
    return ((ahead + this.checkoutsPerRequest) * pool.meanHoldMs) / Math.max(1, pool.max);
  }

  /** The expected wait (ms), calibrated: what the shedding limit is compared with. */
  expected(pool: PoolLoad, inFlight: number): { rawMs: number; expectedMs: number } {
    const rawMs = this.raw(pool, inFlight);
    return { rawMs, expectedMs: rawMs * this.factor };
  }

  /** An admitted request ended after `actualMs`, having been expected to take `rawMs` (uncalibrated). */
  observe(rawMs: number, actualMs: number): void {
    if (rawMs < CALIBRATE_FROM_MS) return;
    const ratio = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, Math.max(actualMs, 1) / rawMs));
    this.logFactor += CALIBRATION_WEIGHT * (Math.log(ratio) - this.logFactor);
  }

  /** Checkouts per admitted request measured over a window; folded into the running value. */
  sampleCheckouts(checkouts: number, requests: number): void {
    const perRequest = Math.min(10, Math.max(1, checkouts / requests));
    this.checkoutsPerRequest += 0.5 * (perRequest - this.checkoutsPerRequest);
  }
}
