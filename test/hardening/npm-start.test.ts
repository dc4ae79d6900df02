import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { seededDataDir } from '../helpers/test-database.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('npm start', () => {
  it('writes only the service’s JSON log lines to stdout (no npm banner or warning), and exits 0 on SIGTERM', {
    timeout: 180_000,
  }, async () => {
    // A migrated DATA_DIR: a first start's initdb costs seconds and writes nothing to stdout, which
    // test/postgres/migrations.test.ts checks on an empty DATA_DIR. The start still makes its keys.
    const dataDir = await seededDataDir('innkeep-npm-start-');
    // The project's .npmrc must decide, not settings inherited from an npm that runs this test.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'DATABASE_URL'),
    );
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
          if (/"msg":"listening on /.test(stdout)) resolve();
        });
        void exited.then((code) =>
          reject(new Error(`npm start exited ${code} before listening:\n${stderr}`)),
        );
      });
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr);

      const lines = stdout.split('\n').filter((line) => line !== '');
      assert.ok(lines.length >= 3, 'catalogue, listening and stopped at least');
      for (const line of lines) {
        assert.doesNotThrow(() => JSON.parse(line), `stdout line is not JSON: ${JSON.stringify(line)}`);
      }
      assert.ok(lines.some((line) => JSON.parse(line).msg === 'stopped'));
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
