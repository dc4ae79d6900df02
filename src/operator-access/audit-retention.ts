import type { Clock } from '../infra/clock.ts';
import type { HousekeepingJob } from '../infra/housekeeping.ts';
import { auditEntriesRepository } from './audit-entries.repository.ts';

const DAY_MS = 24 * 3600 * 1000;

/** Audit entries older than AUDIT_RETENTION_DAYS (API.md 12): the only way an entry ever goes. */
export function auditRetentionJob(retentionDays: number, clock: Clock): HousekeepingJob {
  return {
    name: 'auditEntries',
    run: (db) =>
      auditEntriesRepository.deleteOlderThan(db, new Date(clock.now().getTime() - retentionDays * DAY_MS)),
  };
}
