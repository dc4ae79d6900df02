import type { Database, Transaction } from './database.ts';

/*
 * Waking the workers of an outbox table (webhook deliveries, guest messages) when rows become due:
 * in this process directly after the commit that wrote them, in the others by a notification on
 * the table's channel (pg_notify, sent at commit). The embedded engine has one process and no
 * channel. A worker still polls, for rows coming due later and for notifications lost while a
 * listener reconnected.
 */

const wakers = new WeakMap<object, Map<string, Set<() => void>>>();
const listening = new WeakMap<object, Set<string>>();

/** Rows on `channel` of the database `identity` are due: wakes this process's workers for them. */
export function rowsDue(identity: object, channel: string): void {
  for (const wake of wakers.get(identity)?.get(channel) ?? []) wake();
}

/** After `tx` commits, wakes this process's workers of `channel` (without the notification's round trip). */
export function wakeAfterCommit(tx: Transaction, channel: string): void {
  const identity = tx.database.identity;
  tx.onEnd(async (committed) => {
    if (committed) rowsDue(identity, channel);
  });
}

/**
 * Calls `wake` whenever rows of `channel` may be due; answers how to stop. On PostgreSQL the
 * database's one listening connection for the channel is opened by the first worker (and closed
 * with the database); a listener (re)connecting wakes too, since notifications sent while it was
 * down are lost.
 */
export function onRowsDue(db: Database, channel: string, wake: () => void): () => void {
  let channels = wakers.get(db.identity);
  if (!channels) {
    channels = new Map();
    wakers.set(db.identity, channels);
  }
  let set = channels.get(channel);
  if (!set) {
    set = new Set();
    channels.set(channel, set);
  }
  set.add(wake);
  let heard = listening.get(db.identity);
  if (!heard) {
    heard = new Set();
    listening.set(db.identity, heard);
  }
  if (db.listen && !heard.has(channel)) {
    heard.add(channel);
    const identity = db.identity;
    db.listen(channel, {
      message: () => rowsDue(identity, channel),
      connected: () => rowsDue(identity, channel),
      disconnected: () => {},
    });
  }
  const stopWaking = set;
  return () => stopWaking.delete(wake);
}
