/**
 * `npm run rotate-keys`: makes a new current signing key. Earlier keys stay in the JWKS until the
 * signatures they made have expired, so sessions already handed out keep verifying. Running
 * services pick the new key up within a minute. With the embedded database, run it only while the
 * service is stopped: one process per data dir, so it refuses while the service holds DATA_DIR.
 */
import { systemClock } from '../infra/clock.ts';
import { createEncryptor } from '../infra/crypto/encryption.ts';
import { resolveEncryptionKey } from '../infra/crypto/encryption-key.ts';
import { actorOf } from '../operator-access/audit-trail.ts';
import { rootPrincipal } from '../operator-access/commands/key-grant.ts';
import { keyringOf, SigningKeyStore } from '../signing/signing-key-store.ts';
import { onDatabase } from './command.ts';

await onDatabase({ migrate: true }, async (db, config) => {
  const dataKey = await resolveEncryptionKey(config);
  const store = await SigningKeyStore.open({
    db,
    encryptor: createEncryptor(dataKey),
    clock: systemClock,
    keyring: keyringOf(dataKey),
  });
  const { kid, retired } = await store.rotate(actorOf(rootPrincipal('cli')));
  console.log(
    `new signing key ${kid}; retired ${retired.join(', ') || 'none'} (published until their signatures expire)`,
  );
});
