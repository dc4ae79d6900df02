import { Counter, Gauge, type Registry } from 'prom-client';
import type { Executor } from '../infra/db/database.ts';
import { deliveryRepository } from './delivery.repository.ts';

/**
 * Webhook attempt outcomes counted for `GET /metrics` (per process, like domain-metrics.ts):
 * `delivered` (2xx), `retry` (failed, tried again later), `failed` (failed, given up).
 */
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

const totals: Record<DeliveryOutcome, number> = { delivered: 0, retry: 0, failed: 0 };

export const webhookMetrics = {
  count(outcome: DeliveryOutcome): void {
    totals[outcome]++;
  },
  totals(): Readonly<Record<DeliveryOutcome, number>> {
    return totals;
  },
};

/**
 * Adds the webhook metrics to an app's registry: attempts by outcome (this process), and, from the
 * database at scrape time, the pending deliveries of the deployment and the age of the oldest one.
 */
export function registerWebhookMetrics(registry: Registry, db: Executor): void {
  new Counter({
    name: 'innkeep_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (failed, tried again later), failed (given up)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, total] of Object.entries(totals)) this.inc({ outcome }, total);
    },
  });
  let stats: Promise<{ pending: number; oldestAgeSeconds: number }> | null = null;
  // One query per scrape for both gauges.
  const read = () => {
    stats ??= deliveryRepository.queueStats(db).finally(() => {
      setTimeout(() => {
        stats = null;
      }, 100).unref();
    });
    return stats;
  };
  new Gauge({
    name: 'innkeep_webhook_queue_depth',
    help: 'Webhook deliveries waiting to be delivered (due now or retrying later)',
    registers: [registry],
    async collect() {
      this.set((await read()).pending);
    },
  });
  new Gauge({
    name: 'innkeep_webhook_oldest_pending_seconds',
    help: 'Age of the oldest webhook delivery not yet delivered (0 when none)',
    registers: [registry],
    async collect() {
      this.set((await read()).oldestAgeSeconds);
    },
  });
}
