import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Database } from '../infra/db/database.ts';
import { SYSTEM_SCOPE } from './audit-trail.ts';
import { insertKey, rootPrincipal } from './commands/key-grant.ts';
import type { OperatorKeyHasher } from './key-secret.ts';
import { keysRepository } from './keys.repository.ts';
import { SCOPES } from './scopes.ts';

/** Any constant works; it only has to be the same in every process of a deployment. */
const BOOTSTRAP_LOCK_KEY = 7_150_071;
export const BOOTSTRAP_KEY_FILE = 'operator-key';

export interface BootstrapOptions {
  db: Database;
  hash: OperatorKeyHasher;
  logger: Logger;
  /** Embedded database: where the key file goes. PostgreSQL (null): standard error instead. */
  dataDir: string | null;
  /** Where a PostgreSQL deployment's key is printed (tests capture it). */
  stderr?: NodeJS.WritableStream;
}

/**
 * First start (API.md 7.1): when no operator key exists at all, make one with every scope. With
 * the embedded database it goes to `DATA_DIR/operator-key` (mode 0600); with PostgreSQL it is
 * printed once to standard error. Processes starting together serialise on an advisory lock held
 * for the whole check-and-create, so exactly one of them makes the key. The log says where the
 * key went, never the key.
 */
export async function bootstrapOperatorKey(opts: BootstrapOptions): Promise<'created' | 'exists'> {
  const { db, logger } = opts;
  const created = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
    if (await keysRepository.anyExists(tx)) return null;
    // The key is made in this transaction, so a crash before it is handed over leaves no key behind
    // and the next start tries again.
    const result = await insertKey(
      tx,
      opts.hash,
      rootPrincipal('bootstrap'),
      {
        name: 'Bootstrap key',
        scopes: [...SCOPES],
        hotelIds: null,
      },
      SYSTEM_SCOPE,
    );
    if (opts.dataDir !== null) await writeKeyFile(opts.dataDir, result.secret);
    return result;
  });
  if (!created) return 'exists';
  if (opts.dataDir !== null) {
    logger.warn(
      { keyId: created.key.id, file: path.join(opts.dataDir, BOOTSTRAP_KEY_FILE) },
      'no operator key existed: created one with every scope; it is in the file named here (mode 0600)',
    );
  } else {
    (opts.stderr ?? process.stderr).write(
      `\nInnkeep: no operator key existed, so this one was made with every scope (shown once, keep it safe):\n${created.secret}\n\n`,
    );
    logger.warn(
      { keyId: created.key.id },
      'no operator key existed: created one with every scope and printed it once to standard error',
    );
  }
  return 'created';
}

/** Written to a temporary file with 0600 then renamed, so the key is never readable by others. */
async function writeKeyFile(dataDir: string, secret: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, BOOTSTRAP_KEY_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${secret}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600); // the umask can only narrow the mode, but be explicit
  await rename(temporary, file);
}
