import { rowsDue } from '../infra/db/wake.ts';

/** The notification channel a transaction that made deliveries notifies (pg_notify, sent at commit). */
export const WEBHOOK_CHANNEL = 'innkeep_webhooks';

/**
 * Deliveries of `db` are due: wakes this process's workers on it. Called after the commit of a
 * transaction that made deliveries (record-event.ts); notifications reach it through `onRowsDue`.
 */
export function deliveriesDue(identity: object): void {
  rowsDue(identity, WEBHOOK_CHANNEL);
}
