/**
 * `npm run operator-key -- create --name "Front desk" --scopes reservations:read,inventory:read [--hotels a,b]`
 * prints the new key once; `list` lists keys (never their secrets); `revoke <id>` revokes one.
 * The command line acts with every scope on every hotel; it is audited as `cli`. With the
 * embedded database, run it only while the service is stopped (one process per data dir).
 */

import { parseArgs } from 'node:util';
import { CatalogStore } from '../catalog/catalog.service.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { resolveEncryptionKey } from '../infra/crypto/encryption-key.ts';
import { DataDirLockedError } from '../infra/db/data-dir-lock.ts';
import { migrate } from '../infra/db/migrate.ts';
import { openDatabase } from '../infra/db/open-database.ts';
import { AppError } from '../infra/http/problems.ts';
import { operatorKeyHasher } from '../operator/key-secret.ts';
import { createKey, type KeysDeps, listKeys, revokeKey, rootPrincipal } from '../operator/keys.service.ts';
import { SCOPES, type Scope } from '../operator/scopes.ts';

const USAGE = `usage: npm run operator-key -- create --name NAME --scopes SCOPE[,SCOPE…] [--hotels HOTEL[,HOTEL…]]
       npm run operator-key -- list
       npm run operator-key -- revoke KEY_ID
scopes: ${SCOPES.join(', ')}`;

class UsageError extends Error {}
const csv = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

try {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { name: { type: 'string' }, scopes: { type: 'string' }, hotels: { type: 'string' } },
  });
  const [command, ...rest] = positionals;
  if (!['create', 'list', 'revoke'].includes(command ?? '')) throw new UsageError('unknown command');
  const config = loadConfig(process.env, { requirePublicBaseUrl: false });
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const catalog = new CatalogStore(db);
    await catalog.refresh();
    const deps: KeysDeps = {
      db,
      hash: operatorKeyHasher(await resolveEncryptionKey(config)),
      knownHotel: (id) => catalog.get(id) !== undefined,
      now: () => new Date(),
    };
    const cli = rootPrincipal('cli');
    if (command === 'create') {
      const scopes = csv(values.scopes);
      const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
      if (!values.name || scopes.length === 0 || unknown.length > 0) {
        throw new UsageError(
          unknown.length > 0 ? `unknown scope(s): ${unknown.join(', ')}` : '--name and --scopes are required',
        );
      }
      const hotels = csv(values.hotels);
      const { key, secret } = await createKey(deps, cli, {
        name: values.name,
        scopes: scopes as Scope[],
        hotelIds: hotels.length > 0 ? hotels : null,
      });
      console.log(
        `created operator key ${key.id} (${key.scopes.join(',')}; hotels: ${key.hotelIds?.join(',') ?? 'all'})`,
      );
      console.log('the key (shown only now; store it safely):');
      console.log(secret);
    } else if (command === 'list') {
      for (const key of await listKeys(db, cli)) {
        const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active';
        console.log(
          [
            key.id,
            JSON.stringify(key.name),
            key.scopes.join(','),
            key.hotelIds?.join(',') ?? 'all-hotels',
            key.createdAt.toISOString(),
            state,
          ].join('\t'),
        );
      }
    } else {
      if (rest.length !== 1) throw new UsageError('revoke takes one key id');
      const key = await revokeKey(deps, cli, rest[0] as string);
      console.log(`revoked operator key ${key.id} (${JSON.stringify(key.name)})`);
    }
  } finally {
    await db.close();
  }
} catch (error) {
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(64);
  }
  if (error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(error.exitCode);
  }
  if (error instanceof AppError) {
    console.error(`refused: ${error.message}`);
    process.exit(1);
  }
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 78 : 1);
}
