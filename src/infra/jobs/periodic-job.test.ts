import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPeriodicJob } from './periodic-job.ts';

/** A promise the test settles itself: a run that lasts until the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A job whose runs the test counts and holds; `concurrent` is the most runs ever under way at once. */
function counted(hold?: () => Promise<void>, fail?: (n: number) => boolean) {
  const state = { runs: 0, active: 0, concurrent: 0 };
  const run = async () => {
    state.runs++;
    state.active++;
    state.concurrent = Math.max(state.concurrent, state.active);
    try {
      await hold?.();
      if (fail?.(state.runs)) throw new Error(`run ${state.runs} broke`);
    } finally {
      state.active--;
    }
  };
  /**
   * Resolves once `n` runs have started, however long the machine takes (the job's own timer is
   * unref'd: this wait keeps the test's process alive meanwhile).
   */
  const untilRuns = async (n: number) => {
    while (state.runs < n) await sleep(1);
  };
  return { state, run, untilRuns };
}

const silent = { warn() {} };

describe('startPeriodicJob', () => {
  it('runs when asked, and never on its own when unscheduled', async () => {
    const job = counted();
    const periodic = startPeriodicJob({
      name: 't',
      intervalMs: 1,
      scheduled: false,
      run: job.run,
      log: silent,
    });
    await sleep(20);
    assert.equal(job.state.runs, 0);
    await periodic.runNow();
    assert.equal(job.state.runs, 1);
    await periodic.stop();
  });

  it('never runs twice at once: calls during a run share one follow-up run', async () => {
    const first = gate();
    let n = 0;
    const job = counted(() => (++n === 1 ? first.opened : Promise.resolve()));
    const periodic = startPeriodicJob({
      name: 't',
      intervalMs: 1,
      scheduled: false,
      run: job.run,
      log: silent,
    });
    const a = periodic.runNow();
    const b = periodic.runNow();
    const c = periodic.runNow();
    assert.equal(b, c, 'one follow-up shared by the callers that came during the run');
    first.open();
    await Promise.all([a, b, c]);
    assert.equal(job.state.runs, 2);
    assert.equal(job.state.concurrent, 1);
    await periodic.stop();
  });

  it('a failed run is logged and the next run still happens', async () => {
    const logged: unknown[] = [];
    const job = counted(undefined, (n) => n === 1);
    const periodic = startPeriodicJob({
      name: 'cleanup',
      intervalMs: 1,
      scheduled: false,
      run: job.run,
      log: { warn: (obj, msg) => logged.push({ obj, msg }) },
    });
    await periodic.runNow();
    assert.equal(logged.length, 1);
    const [entry] = logged as { obj: { err: Error; job: string }; msg: string }[];
    assert.equal(entry?.obj.err.message, 'run 1 broke');
    assert.equal(entry?.obj.job, 'cleanup');
    assert.match(entry?.msg ?? '', /^cleanup failed/);
    await periodic.runNow();
    assert.equal(job.state.runs, 2);
    assert.equal(logged.length, 1);
    await periodic.stop();
  });

  it('on its schedule, a run under way is never overlapped, and a failure does not end the schedule', async () => {
    const holds: ReturnType<typeof gate>[] = [];
    const job = counted(
      () => {
        const held = gate();
        holds.push(held);
        return held.opened;
      },
      (n) => n === 1,
    );
    const periodic = startPeriodicJob({ name: 't', intervalMs: 1, run: job.run, log: silent });
    await job.untilRuns(1);
    await sleep(20); // many turns of the schedule pass while the first run is held
    assert.equal(job.state.runs, 1);
    holds[0]?.open();
    await job.untilRuns(2);
    holds[1]?.open();
    await job.untilRuns(3);
    assert.equal(job.state.concurrent, 1);
    const stopped = periodic.stop();
    holds[2]?.open();
    await stopped;
    const runs = job.state.runs;
    await sleep(20);
    assert.equal(job.state.runs, runs, 'no run after stop');
  });

  it('runs at start when asked', async () => {
    const job = counted();
    const periodic = startPeriodicJob({
      name: 't',
      intervalMs: 3_600_000,
      runAtStart: true,
      run: job.run,
      log: silent,
    });
    await job.untilRuns(1);
    await periodic.stop();
    assert.equal(job.state.runs, 1);
  });

  it('stop waits for the run under way, and nothing runs after it', async () => {
    const held = gate();
    const job = counted(() => held.opened);
    const periodic = startPeriodicJob({
      name: 't',
      intervalMs: 1,
      scheduled: false,
      run: job.run,
      log: silent,
    });
    void periodic.runNow();
    const followUp = periodic.runNow();
    let done = false;
    const stopped = periodic.stop().then(() => {
      done = true;
    });
    await sleep(20);
    assert.equal(done, false, 'stop has not returned while the run is held');
    held.open();
    await stopped;
    await followUp;
    assert.equal(job.state.active, 0);
    assert.equal(job.state.runs, 1, 'the follow-up promised before stop does not run after it');
    await periodic.runNow();
    assert.equal(job.state.runs, 1);
  });
});
