import { execFileSync, execSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, type ServiceOptions } from './processes.ts';

/**
 * An operator key of the deployment: the bootstrap key the embedded engine writes to DATA_DIR, or
 * (PostgreSQL, whose bootstrap key goes to standard error) one made with the CLI with `scopes`, the
 * CLI of the checkout at `root` (this one by default).
 */
export function operatorKey(options: ServiceOptions, scopes: string[], root = ROOT): string {
  if (!options.databaseUrl)
    return execSync(`cat ${join(options.dataDir, 'operator-key')}`, { encoding: 'utf8' }).trim();
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/operator-key.ts', 'create', '--name', 'bench', '--scopes', scopes.join(',')],
    {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        DATABASE_URL: options.databaseUrl,
        DATA_ENCRYPTION_KEY: options.key,
        DATA_DIR: options.dataDir,
        CATALOG_FILE: options.catalogFile,
        LOG_LEVEL: 'warn',
      },
    },
  );
  const key = /ik_[0-9a-z]+/.exec(out)?.[0];
  if (!key) throw new Error(`no operator key in: ${out}`);
  return key;
}
