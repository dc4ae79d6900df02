import type { Logger } from 'pino';
import { randomToken } from '../crypto/tokens.ts';
import type { Database, Transaction } from '../db/database.ts';
import { onRowsDue } from '../db/wake.ts';

/**
 * How long a wake-up waits before claiming, so that the rows of changes committing together are
 * claimed (and their outcomes recorded) in one statement rather than one each.
 */
const GATHER_MS = 10;

export interface ClaimWorkerOptions<Item, Outcome> {
  db: Database;
  logger: Logger;
  /** For the logs: what the worker sends (`webhook`, `message`). */
  name: string;
  /**
   * The notification channel the outbox's writers notify (infra/db/wake.ts); absent when nothing
   * notifies (rows come due by time only, as iCal imports do): the poll alone finds them.
   */
  channel?: string;
  /** Items in flight at once in this process: one slow receiver takes one slot, not the worker. */
  concurrency: number;
  pollIntervalMs: number;
  /** How long `stop` lets items in flight finish before aborting them. */
  graceMs: number;
  /** Claims up to `limit` due rows under the claim token `claim` (SKIP LOCKED plus a lease). */
  claim(limit: number, claim: string): Promise<Item[]>;
  /** Handles one item outside any transaction; null = aborted untried (it is released). */
  run(item: Item, signal: AbortSignal): Promise<Outcome | null>;
  /**
   * Records ended items' outcomes, a batch per call, in one transaction of its own. Absent when
   * `run` records each item's outcome itself (an iCal import's sync writes its holds and its next
   * fetch in one transaction).
   */
  record?(tx: Transaction, outcomes: Outcome[]): Promise<void>;
  /** Gives an item back untried (shutdown). */
  release(item: Item): Promise<void>;
}

export interface ClaimWorker {
  /** Stops claiming; waits for items in flight up to the grace, then aborts and hands the rest back. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The delivery loop of an outbox table: claims due rows in batches, handles each outside any
 * transaction, and records the outcomes of the items that have ended, a batch per statement.
 * Every process of a deployment runs one per outbox; the claims (SKIP LOCKED, a lease that a dead
 * process's rows outlive) make each attempt exactly once. Woken after a commit that wrote rows (in
 * this process directly, in the others by notification, see infra/db/wake.ts); the poll every
 * `pollIntervalMs` finds rows coming due and whatever a lost notification left. Used by webhook
 * delivery (events/), guest messages (messages/) and iCal imports (channels/ical/, polled only).
 */
export function startClaimWorker<Item, Outcome>(options: ClaimWorkerOptions<Item, Outcome>): ClaimWorker {
  const { db, logger } = options;
  const inFlight = new Set<Promise<void>>();
  /** Claimed and not yet recorded (or released): the slots of `concurrency` in use. */
  let held = 0;
  /** The last claim filled every free slot: more may be due once slots free. */
  let backlog = false;
  /** Items waiting for their answer. */
  let running = 0;
  const ended: Outcome[] = [];
  let recording: Promise<void> | null = null;
  let claiming: Promise<void> | null = null;
  let again = false;
  let gather: NodeJS.Timeout | null = null;
  let flush: NodeJS.Timeout | null = null;
  const abort = new AbortController();
  let stopped = false;

  async function handle(item: Item): Promise<void> {
    running++;
    const outcome = await options.run(item, abort.signal).finally(() => running--);
    if (outcome === null) {
      await options.release(item).finally(() => held--);
      return;
    }
    if (!options.record) {
      held--;
      if (backlog) wake(true);
      return;
    }
    ended.push(outcome);
    record();
  }

  /**
   * Records the items that have ended, a batch at a time: those ending within GATHER_MS of the
   * first, or while the previous batch is being recorded, go together.
   */
  function record(): void {
    if (recording || ended.length === 0) return;
    if (stopped || running === 0) {
      if (flush) clearTimeout(flush);
      flush = null;
      recordBatch();
      return;
    }
    flush ??= setTimeout(() => {
      flush = null;
      recordBatch();
    }, GATHER_MS);
  }

  function recordBatch(): void {
    const batch = ended.splice(0);
    recording = db
      .transaction(async (tx) => {
        // A recorded outcome lost in a server crash only means the item is handled again once its
        // lease ends (at least once): the worker need not wait for the WAL flush.
        await tx.query('SET LOCAL synchronous_commit = off');
        await options.record?.(tx, batch);
      })
      .catch((err) => logger.warn({ err, items: batch.length }, `${options.name} outcomes not recorded`))
      .finally(() => {
        held -= batch.length;
        recording = null;
        record();
        if (backlog) wake(true);
      });
  }

  async function claimDue(): Promise<void> {
    do {
      again = false;
      const free = options.concurrency - held;
      if (free <= 0 || stopped) return;
      const claimed = await options.claim(free, randomToken('clm_', 10));
      backlog = claimed.length === free;
      held += claimed.length;
      for (const item of claimed) {
        const done: Promise<void> = handle(item)
          .catch((err) => logger.warn({ err }, `${options.name} could not be handled`))
          .finally(() => inFlight.delete(done));
        inFlight.add(done);
      }
    } while (again && !stopped);
  }

  /** Claims soon (after GATHER_MS; at once when the last claim left more due), or once more after the claim under way. */
  function wake(now = false): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    gather ??= setTimeout(
      () => {
        gather = null;
        claiming = claimDue()
          .catch((err) => logger.warn({ err }, `${options.name} worker: claim failed; retrying`))
          .finally(() => {
            claiming = null;
          });
      },
      now ? 0 : GATHER_MS,
    );
  }

  const unsubscribe = options.channel ? onRowsDue(db, options.channel, () => wake()) : () => {};
  const poll = setInterval(() => wake(), options.pollIntervalMs);
  poll.unref();
  wake();

  return {
    async stop(graceMs = options.graceMs) {
      stopped = true;
      unsubscribe();
      clearInterval(poll);
      if (gather) clearTimeout(gather);
      await claiming;
      const all = () => Promise.all([...inFlight]);
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, graceMs);
      });
      await Promise.race([all(), graceOver]);
      clearTimeout(graceTimer);
      if (inFlight.size > 0) {
        abort.abort();
        await all();
      }
      record();
      while (recording) await recording;
    },
  };
}
