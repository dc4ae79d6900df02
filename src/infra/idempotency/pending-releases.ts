import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { type ClaimToken, type KeyScope, idempotencyRepository as keys } from './idempotency.repository.ts';

/** One key's name among the pending ones: its hotel (none for a key kept apart) and its hash. */
const idOf = (scope: KeyScope) => `${scope.hotelId ?? ''}/${scope.hash.toString('hex')}`;

/** First wait before a failed release is tried again; doubles up to the most. */
const FIRST_RETRY_MS = 100;
const MOST_RETRY_MS = 1_000;

/**
 * Claims this process must give back but could not, because the database was away when the
 * request ended (the very outage that made it fail). Each is tried again, more slowly, until the
 * release is done or the claim's lock has lapsed (then any retry may take the key over anyway),
 * and at once when a request with the same key arrives: a client retrying after an outage finds
 * its key free instead of `409 idempotency_in_progress` for the rest of the lock. A release is
 * fenced by its token, so one that comes late can never free another holder's claim.
 */
export function pendingReleases(db: Database, log: FastifyBaseLogger, lockSeconds: number) {
  const pending = new Map<string, { scope: KeyScope; token: ClaimToken; until: number }>();
  let timer: NodeJS.Timeout | undefined;
  let delay = FIRST_RETRY_MS;
  let closed = false;

  const tryRelease = async (id: string): Promise<boolean> => {
    const entry = pending.get(id);
    if (!entry) return true;
    try {
      await keys.release(db, entry.scope, entry.token);
      pending.delete(id);
      return true;
    } catch {
      if (Date.now() >= entry.until) pending.delete(id);
      return false;
    }
  };

  const schedule = () => {
    if (timer || closed || pending.size === 0) return;
    timer = setTimeout(async () => {
      timer = undefined;
      let failed = false;
      for (const id of [...pending.keys()]) {
        if (!(await tryRelease(id))) failed = true;
      }
      delay = failed ? Math.min(delay * 2, MOST_RETRY_MS) : FIRST_RETRY_MS;
      schedule();
    }, delay);
    timer.unref();
  };

  /** Releases under way: a retry of the same key on this process waits for its own (`settle`). */
  const underWay = new Map<string, Promise<void>>();

  const attempt = async (id: string, scope: KeyScope, token: ClaimToken) => {
    try {
      await keys.release(db, scope, token);
    } catch (err) {
      log.warn({ err }, 'could not release idempotency key; retrying');
      pending.set(id, { scope, token, until: Date.now() + lockSeconds * 1000 });
      delay = FIRST_RETRY_MS;
      schedule();
    }
  };

  return {
    /**
     * Gives the claim back, now or as soon as the database lets it, without keeping the caller
     * waiting: the answer that ends a request is not held up by the release (during an outage
     * that is the pool's whole connection timeout).
     */
    release(scope: KeyScope, token: ClaimToken): void {
      const id = idOf(scope);
      const running = attempt(id, scope, token).finally(() => {
        if (underWay.get(id) === running) underWay.delete(id);
      });
      underWay.set(id, running);
    },
    /** Before claiming `scope`: gives back this process's pending claim of it, if it can now. */
    async settle(scope: KeyScope): Promise<void> {
      const id = idOf(scope);
      await underWay.get(id);
      if (pending.has(id)) await tryRelease(id);
    },
    /** No more retries; resolves once the releases under way have ended (before the pool closes). */
    async close(): Promise<void> {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await Promise.all(underWay.values());
    },
  };
}
