import type { Logger } from 'pino';
import type { Database } from './db/database.ts';
import { type PeriodicJob, startPeriodicJob } from './jobs/periodic-job.ts';

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

/** Runs the jobs every `intervalMs` on the periodic-job primitive; what was deleted is logged. */
export function startHousekeeping(
  db: Database,
  logger: Logger,
  intervalMs: number,
  jobs: HousekeepingJob[],
): PeriodicJob {
  return startPeriodicJob({
    name: 'housekeeping',
    intervalMs,
    log: logger,
    async run() {
      const deleted = await runHousekeeping(db, jobs);
      if (Object.values(deleted).some((count) => count > 0)) logger.info({ deleted }, 'housekeeping');
    },
  });
}
