/**
 * `npm run operator-key -- create --name "Front desk" --scopes reservations:read,inventory:read [--hotels a,b]`
 * prints the new key once; `list` lists keys (never their secrets); `revoke <id>` revokes one.
 * The command line acts with every scope on every hotel; it is audited as `cli`. With the
 * embedded database and the service running on the same DATA_DIR, it asks the service to do it
 * over the service's control channel (DATA_DIR/control.sock), since one process only may open
 * the database.
 */

import { CatalogStore } from '../catalog/catalog-store.ts';
import { resolveEncryptionKey } from '../infra/crypto/encryption-key.ts';
import { parseOperatorKeyArgs, runOperatorKeyCommand } from '../operator-access/key-command-line.ts';
import { operatorKeyHasher } from '../operator-access/key-secret.ts';
import { onDatabase, reply } from './command.ts';

const args = process.argv.slice(2);
const parsed = parseOperatorKeyArgs(args);
if ('code' in parsed) {
  reply(parsed);
} else {
  await onDatabase(
    {
      migrate: true,
      askService: {
        command: 'operator-key',
        args,
        hint:
          '; while it runs, keys are also made over HTTP with a key holding keys:write: ' +
          'POST /api/v1/operator/keys (README, "Operator API").',
      },
    },
    async (db, config) => {
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
    },
  );
}
