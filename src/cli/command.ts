import { type Config, loadConfig } from '../config.ts';
import { askRunningService } from '../infra/control-channel.ts';
import { DataDirLockedError } from '../infra/db/data-dir-lock.ts';
import type { Database } from '../infra/db/database.ts';
import { migrate } from '../infra/db/migrate.ts';
import { openDatabase } from '../infra/db/open-database.ts';
import { fail } from './fail.ts';

/** The running service's answer to a command line, printed as the command's own. */
export function reply(r: { code: number; stdout: string; stderr: string }): void {
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  process.exitCode = r.code;
}

/**
 * How every command line that works on the database runs, written once: the configuration (no
 * PUBLIC_BASE_URL needed: the CLIs neither sign nor link), the database opened, migrated when
 * asked, closed whatever happens, and every error ended by `fail`. With `askService`, an embedded
 * DATA_DIR held by the running service is not a refusal: the command is asked of the service over
 * its control channel (DATA_DIR/control.sock), and `hint` follows the refusal if it does not answer.
 */
export async function onDatabase(
  options: {
    requireEncryptionKey?: boolean;
    migrate?: boolean;
    /** What failed, for `fail`'s `what: message` (a function of the error: only some are named). */
    what?: string | ((error: unknown) => string | undefined);
    /** Checked before the database opens; a line returned refuses the command (exit 64). */
    refuse?: (config: Config) => string | undefined;
    askService?: { command: string; args: string[]; hint: string };
  },
  body: (db: Database, config: Config) => Promise<void>,
): Promise<void> {
  try {
    const config = loadConfig(process.env, {
      requireEncryptionKey: options.requireEncryptionKey,
      requirePublicBaseUrl: false,
    });
    const refusal = options.refuse?.(config);
    if (refusal) {
      console.error(refusal);
      process.exit(64);
    }
    let db: Database;
    try {
      db = await openDatabase(config);
    } catch (error) {
      if (!(error instanceof DataDirLockedError) || !options.askService) throw error;
      const { command, args, hint } = options.askService;
      const answered = await askRunningService(config.dataDir, command, args);
      if (answered) return reply(answered);
      console.error(
        `${error.message}\nThe service there does not answer on ${config.dataDir}/control.sock${hint}`,
      );
      process.exit(error.exitCode);
    }
    try {
      if (options.migrate) await migrate(db);
      await body(db, config);
    } finally {
      await db.close();
    }
  } catch (error) {
    fail(error, typeof options.what === 'function' ? options.what(error) : options.what);
  }
}
