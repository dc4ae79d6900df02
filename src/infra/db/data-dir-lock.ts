import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * One process per embedded database. PGlite has no lock of its own: two processes on one DATA_DIR
 * each keep their own copy of the pages in memory and overwrite each other's writes, so confirmed
 * bookings vanish and the directory ends up corrupt. A lock file, created exclusively before the
 * database opens, makes a second process (a second `npm start`, a CLI) refuse at once instead.
 */
export const LOCK_FILE = 'innkeep.lock';
/** sysexits EX_TEMPFAIL: another process holds the data directory; retry once it has stopped. */
export const DATA_DIR_LOCKED_EXIT_CODE = 75;

interface LockOwner {
  pid: number;
  startedAt: string;
  host: string;
  /** The process's start time in clock ticks since boot (Linux), to tell a reused pid from its owner. */
  processStart: string | null;
  /** Unique per acquisition: a process checks it still holds *its* lock, not one that replaced it. */
  token: string;
}

export class DataDirLockedError extends Error {
  readonly exitCode = DATA_DIR_LOCKED_EXIT_CODE;
  constructor(
    readonly dataDir: string,
    readonly holder: Partial<LockOwner>,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another process (pid ${holder.pid ?? 'unknown'}` +
        `${holder.host ? ` on ${holder.host}` : ''}, since ${holder.startedAt ?? 'an unknown time'}). ` +
        'The embedded database can be opened by one process only: stop that process first, or give this ' +
        'one its own DATA_DIR (several processes need PostgreSQL: set DATABASE_URL).',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still this process's; safe to call more than once. */
  release(): void;
}

/** Field 22 of /proc/<pid>/stat: when the process started. Null where there is no /proc. */
function processStartOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function readOwner(file: string): Partial<LockOwner> | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Unreadable or half-written (its writer died between create and write): owned by nobody alive.
    return {};
  }
}

/** Whether the process that wrote `owner` is gone, so its lock may be taken over. */
function isStale(owner: Partial<LockOwner>): boolean {
  const pid = owner.pid;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return true;
  // Our own pid from an earlier life (a container restarted: the service is pid 1 again).
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user; only ESRCH means it is gone.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  // The pid is alive, but may have been reused by an unrelated process since the owner died.
  const now = processStartOf(pid);
  return owner.processStart != null && now != null && now !== owner.processStart;
}

/**
 * Takes the lock on `dataDir`, or throws `DataDirLockedError` naming the pid that holds it. A lock
 * left by a process that is gone (`kill -9`, a power cut) is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockOwner = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    host: hostname(),
    processStart: processStartOf(process.pid),
    token: randomUUID(),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(file);
      if (owner === null) continue; // released meanwhile: try again
      if (!isStale(owner)) throw new DataDirLockedError(dataDir, owner);
      takeOverStale(file, owner);
      continue;
    }
    // Verify: the file is ours, not replaced by a process that judged an earlier lock stale.
    if (readOwner(file)?.token === me.token) return heldLock(file, me.token);
  }
  const owner = readOwner(file) ?? {};
  throw new DataDirLockedError(dataDir, owner);
}

/**
 * Removes a stale lock without ever removing a live one. Two processes may judge the same lock
 * stale; the first removes it and creates its own, and the second must not then delete that one.
 * So the file is renamed aside (atomic), and only deleted if what was moved is the very lock judged
 * stale; otherwise it is put back with link(), which never overwrites.
 */
function takeOverStale(file: string, judged: Partial<LockOwner>): void {
  const aside = `${file}.stale-${process.pid}-${randomUUID()}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else moved it
    throw error;
  }
  const moved = readOwner(aside);
  const same = moved !== null && moved.token === judged.token && moved.pid === judged.pid;
  if (!same) {
    try {
      linkSync(aside, file);
    } catch {
      // A third process created a lock in between: it holds; ours fails verification and retries.
    }
  }
  unlinkSync(aside);
}

function heldLock(file: string, token: string): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    if (readOwner(file)?.token !== token) return;
    try {
      unlinkSync(file);
    } catch {
      // Already gone: nothing to release.
    }
  };
  // Every way out of the process (process.exit after a failed start, the shutdown timeout) removes
  // it; only a process killed outright leaves it behind, and that one is recognised as stale.
  process.on('exit', release);
  return { file, release };
}
