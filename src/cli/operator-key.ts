/**
 * `npm run operator-key -- create --name "Front desk" --scopes reservations:read,inventory:read [--hotels a,b]`
 * prints the new key once; `list` lists keys (never their secrets); `revoke <id>` revokes one.
 * The command line acts with every scope on every hotel; it is audited as `cli`. With the
 * embedded database and the service running on the same DATA_DIR, it asks the service to do it
 * over the service's control channel (DATA_DIR/control.sock), since one process only may open
 * the database.
 */

import { CatalogStore } from '../catalog/catalog.service.ts';
import { loadConfig } from '../config.ts';
import { askRunningService } from '../infra/control-channel.ts';
import { resolveEncryptionKey } from '../infra/crypto/encryption-key.ts';
import { DataDirLockedError } from '../infra/db/data-dir-lock.ts';
import { migrate } from '../infra/db/migrate.ts';
import { openDatabase } from '../infra/db/open-database.ts';
import { parseOperatorKeyArgs, runOperatorKeyCommand } from '../operator/key-commands.ts';
import { operatorKeyHasher } from '../operator-access/key-secret.ts';
import { fail } from './fail.ts';

const args = process.argv.slice(2);
const reply = (r: { code: number; stdout: string; stderr: string }) => {
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  process.exitCode = r.code;
};

try {
  const parsed = parseOperatorKeyArgs(args);
  if ('code' in parsed) {
    reply(parsed);
  } else {
    const config = loadConfig(process.env, { requirePublicBaseUrl: false });
    let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
    try {
      db = await openDatabase(config);
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      const answered = await askRunningService(config.dataDir, 'operator-key', args);
      if (answered) {
        reply(answered);
      } else {
        console.error(
          `${error.message}\nThe service there does not answer on ${config.dataDir}/control.sock; while it runs, ` +
            'keys are also made over HTTP with a key holding keys:write: POST /api/v1/operator/keys (README, "Operator API").',
        );
        process.exitCode = error.exitCode;
      }
    }
    if (db) {
      try {
        await migrate(db);
        const catalog = new CatalogStore(db);
        await catalog.refresh();
        reply(
          await runOperatorKeyCommand(
            {
              db,
              hash: operatorKeyHasher(await resolveEncryptionKey(config)),
              knownHotel: (id) => catalog.get(id) !== undefined,
              now: () => new Date(),
            },
            args,
          ),
        );
      } finally {
        await db.close();
      }
    }
  }
} catch (error) {
  fail(error);
}
