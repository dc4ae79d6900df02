import type { Logger } from 'pino';
import type { Database } from './db/database.ts';

/**
 * One cleanup: deletes rows that have outlived their purpose and answers how many went. Each
 * feature owns its jobs; the runtime hands them to `startHousekeeping`, so this module knows none.
 * A job must be safe to run on every process at once.
 */
export interface HousekeepingJob {
  name: string;
  run(db: Database): Promise<number>;
}

export async function runHousekeeping(
  db: Database,
  jobs: HousekeepingJob[],
): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const job of jobs) deleted[job.name] = await job.run(db);
  return deleted;
}

export function startHousekeeping(
  db: Database,
  logger: Logger,
  intervalMs: number,
  jobs: HousekeepingJob[],
): () => void {
  const timer = setInterval(() => {
    runHousekeeping(db, jobs)
      .then((deleted) => {
        if (Object.values(deleted).some((count) => count > 0)) logger.info({ deleted }, 'housekeeping');
      })
      .catch((err) => logger.warn({ err }, 'housekeeping failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
