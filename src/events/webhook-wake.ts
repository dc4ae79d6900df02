import type { Database } from '../infra/db/database.ts';

/** The notification channel a transaction that made deliveries notifies (pg_notify, sent at commit). */
export const WEBHOOK_CHANNEL = 'innkeep_webhooks';

const wakers = new WeakMap<object, Set<() => void>>();
const listening = new WeakSet<object>();

/**
 * Deliveries of `db` are due: wakes this process's workers on it. Called after the commit of a
 * transaction that made deliveries (record-event.ts), and for each notification on
 * WEBHOOK_CHANNEL, which is how another process's commit reaches this one.
 */
export function deliveriesDue(identity: object): void {
  for (const wake of wakers.get(identity) ?? []) wake();
}

/**
 * Calls `wake` whenever deliveries of `db` may be due; answers how to stop. On PostgreSQL the
 * database's one listening connection for the channel is opened by the first worker (and closed
 * with the database); a listener (re)connecting wakes too, since notifications sent while it was
 * down are lost. The embedded engine needs no channel: one process makes every change.
 */
export function onDeliveriesDue(db: Database, wake: () => void): () => void {
  let set = wakers.get(db.identity);
  if (!set) {
    set = new Set();
    wakers.set(db.identity, set);
  }
  set.add(wake);
  if (db.listen && !listening.has(db.identity)) {
    listening.add(db.identity);
    const identity = db.identity;
    db.listen(WEBHOOK_CHANNEL, {
      message: () => deliveriesDue(identity),
      connected: () => deliveriesDue(identity),
      disconnected: () => {},
    });
  }
  return () => set.delete(wake);
}
