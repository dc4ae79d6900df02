/**
 * The one shape of background work that is not a claimable row (those go on
 * `infra/outbox/claim-worker.ts`): a job run every `intervalMs`, one run at a time, its errors
 * logged (the next run still comes), stopped with the service (`stop` waits for a run under way).
 * Housekeeping, the identity purge, the payment worker and the catalogue's and signing keys'
 * refreshes are each one of these.
 */
export interface PeriodicJob {
  /**
   * Runs the job now and resolves when a run that started at or after this call has ended. While a
   * run is under way, that run may have read its work before the caller's change: one more run
   * follows it, shared by every caller meanwhile. After `stop`, nothing runs.
   */
  runNow(): Promise<void>;
  /** Stops the schedule and waits for the run under way (and a follow-up already promised). */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  /** Named in the log line of a failed run. */
  name: string;
  intervalMs: number;
  run(): Promise<void>;
  log: { warn(obj: unknown, msg: string): void };
  /** Also run once at start (default: first run after `intervalMs`). */
  runAtStart?: boolean;
  /** false: no schedule, only `runNow` (tests drive the job themselves). */
  scheduled?: boolean;
}

export function startPeriodicJob(options: PeriodicJobOptions): PeriodicJob {
  let running: Promise<void> | null = null;
  let followUp: Promise<void> | null = null;
  let stopped = false;

  const once = async (): Promise<void> => {
    try {
      await options.run();
    } catch (err) {
      options.log.warn({ err, job: options.name }, `${options.name} failed; it runs again at the next turn`);
    }
  };
  const start = (): Promise<void> => {
    running = once().finally(() => {
      running = null;
    });
    return running;
  };
  const runNow = (): Promise<void> => {
    if (stopped) return followUp ?? running ?? Promise.resolve();
    if (!running) return start();
    followUp ??= running.then(() => {
      followUp = null;
      return stopped ? undefined : start();
    });
    return followUp;
  };
  // A turn of the schedule that finds a run under way is skipped: the schedule never queues runs.
  const tick = () => {
    if (!running && !stopped) void start();
  };

  const timer = options.scheduled === false ? null : setInterval(tick, options.intervalMs);
  timer?.unref();
  if (options.runAtStart) tick();
  return {
    runNow,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await (followUp ?? running);
    },
  };
}
