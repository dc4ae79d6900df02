/**
 * `npm run staff -- invite --email EMAIL --name NAME --role owner [--hotels a,b] [--language en]`
 * invites a person and prints the invitation link once (API.md 12): the first owner, before any
 * mail is configured. With the embedded database and the service running on the same DATA_DIR, it
 * asks the service over its control channel (DATA_DIR/control.sock), as `operator-key` does.
 */

import { CatalogStore } from '../catalog/catalog-store.ts';
import { systemClock } from '../infra/clock.ts';
import { createEncryptor } from '../infra/crypto/encryption.ts';
import { resolveEncryptionKey } from '../infra/crypto/encryption-key.ts';
import { parseStaffArgs, runStaffCommand } from '../staff/staff-command-line.ts';
import { onDatabase, reply } from './command.ts';

const args = process.argv.slice(2);
const parsed = parseStaffArgs(args);
if ('code' in parsed) {
  reply(parsed);
} else {
  await onDatabase(
    {
      migrate: true,
      askService: {
        command: 'staff',
        args,
        hint: '; while it runs, people are also invited over HTTP with staff:write: POST /api/v1/operator/staff.',
      },
    },
    async (db, config) => {
      const catalog = new CatalogStore(db);
      await catalog.refresh();
      const encryptor = createEncryptor(await resolveEncryptionKey(config));
      reply(await runStaffCommand({ db, config, catalog, encryptor, clock: systemClock }, args));
    },
  );
}
