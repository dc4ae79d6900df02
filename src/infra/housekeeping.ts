import type { Logger } from 'pino';
import { quoteRepository } from '../booking/quote.repository.ts';
import { keysRepository } from '../operator/keys.repository.ts';
import type { Database } from './db/database.ts';
import { idempotencyRepository } from './idempotency/idempotency.repository.ts';

/**
 * Deletes what has outlived its purpose: idempotency keys past their 24 h and quotes that expired
 * a day ago without becoming a reservation. Safe to run on every process at once.
 */
export async function runHousekeeping(db: Database): Promise<{ idempotencyKeys: number; quotes: number }> {
  const idempotencyKeys = await idempotencyRepository.deleteExpired(db);
  const quotes = await quoteRepository.deleteStale(db);
  // Failure windows of a day ago are of no use to the operator authentication limit (≤ 7 days).
  await keysRepository.deleteEndedFailureWindows(db, new Date(Date.now() - 8 * 24 * 3600 * 1000));
  return { idempotencyKeys, quotes };
}

export function startHousekeeping(db: Database, logger: Logger, intervalMs: number): () => void {
  const timer = setInterval(() => {
    runHousekeeping(db)
      .then((deleted) => {
        if (deleted.idempotencyKeys + deleted.quotes > 0) logger.info({ deleted }, 'housekeeping');
      })
      .catch((err) => logger.warn({ err }, 'housekeeping failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
