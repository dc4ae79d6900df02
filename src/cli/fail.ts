import { ConfigError } from '../config.ts';
import { DataDirLockedError } from '../infra/db/data-dir-lock.ts';

/**
 * How every command line ends on an error, written once so they answer alike: a configuration
 * error is its message and exit 78 (EX_CONFIG, as the service), a DATA_DIR held by another
 * process its message and 75 (EX_TEMPFAIL: try again once it is free), anything else exit 1 with
 * `what: message` when the command names what failed, else the whole error (its stack) to report.
 */
export function fail(error: unknown, what?: string): never {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(error instanceof ConfigError ? 78 : error.exitCode);
  }
  console.error(what ? `${what}: ${(error as Error).message}` : error);
  process.exit(1);
}
