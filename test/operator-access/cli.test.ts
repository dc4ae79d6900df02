import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { nodeScript } from '../helpers/node-command.ts';
import { ROOT } from '../helpers/service-process.ts';
import { seededDataDir } from '../helpers/test-database.ts';

const run = promisify(execFile);

/** The operator-key CLI against an embedded database in `dataDir` (never the suite's PostgreSQL). */
async function operatorKey(args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _, ...inherited } = process.env;
  return run(process.execPath, [...nodeScript('src/cli/operator-key.ts'), ...args], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    timeout: 60_000,
  });
}

describe('npm run operator-key', () => {
  it('creates (printing the key once), lists without secrets, and revokes', async () => {
    const dataDir = await seededDataDir('innkeep-opkey-');
    const env = { DATA_DIR: dataDir, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    try {
      const created = await operatorKey(
        ['create', '--name', 'Front desk', '--scopes', 'reservations:read,inventory:read'],
        env,
      );
      const key = /^ik_[0-9a-z]{52}$/m.exec(created.stdout)?.[0];
      const id = /created operator key (key_[0-9a-z]+)/.exec(created.stdout)?.[1];
      assert.ok(key && id, created.stdout);

      const listed = await operatorKey(['list'], env);
      assert.match(
        listed.stdout,
        new RegExp(`${id}\\t"Front desk"\\treservations:read,inventory:read\\tall-hotels\\t.*\\tactive`),
      );
      assert.equal(listed.stdout.includes(key.slice(3)), false);

      const revoked = await operatorKey(['revoke', id], env);
      assert.match(revoked.stdout, new RegExp(`revoked operator key ${id}`));
      assert.match((await operatorKey(['list'], env)).stdout, /\trevoked \d{4}-/);

      await assert.rejects(
        operatorKey(['create', '--name', 'x', '--scopes', 'admin'], env),
        (error: { code: number; stderr: string }) => {
          assert.equal(error.code, 64);
          assert.match(error.stderr, /unknown scope\(s\): admin/);
          return true;
        },
      );
      await assert.rejects(operatorKey(['revoke', 'key_unknown'], env), /No operator key has the id/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
