import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { seededDataDir } from '../helpers/test-database.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The environment without what an npm running this test passes down: npm's own defaults decide. */
const ownEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'DATABASE_URL'),
  );

function npm(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('npm', args, { cwd, env: ownEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('npm start', () => {
  it('with --silent writes only the service’s JSON log lines to stdout, and exits 0 on SIGTERM', {
    timeout: 180_000,
  }, async () => {
    // A migrated DATA_DIR: a first start's initdb costs seconds and writes nothing to stdout, which
    // test/postgres/migrations.test.ts checks on an empty DATA_DIR. The start still makes its keys.
    const dataDir = await seededDataDir('innkeep-npm-start-');
    // npm's defaults must decide, not settings inherited from an npm that runs this test.
    const env = ownEnv();
    const child = spawn('npm', ['start', '--silent'], {
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

  it('talks to people as npm usually does: scripts listed as text, what went wrong said', {
    timeout: 60_000,
  }, async () => {
    // `npm run` lists the scripts as text, not as JSON.
    const list = await npm(['run'], ROOT);
    assert.equal(list.code, 0, list.stderr);
    assert.doesNotMatch(list.stdout, /^\s*[{[]/);
    assert.match(list.stdout, /^ {2}start$/m);

    const typo = await npm(['run', 'strat'], ROOT);
    assert.notEqual(typo.code, 0);
    assert.match(typo.stderr, /Missing script: "strat"/);

    // A project whose lockfile lacks a dependency: refused before anything is fetched.
    const dir = await mkdtemp(path.join(tmpdir(), 'innkeep-npm-'));
    try {
      const manifest = { name: 'lock-check', version: '1.0.0', dependencies: { 'left-pad': '1.3.0' } };
      await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest));
      const lock = {
        name: 'lock-check',
        version: '1.0.0',
        lockfileVersion: 3,
        requires: true,
        packages: { '': { name: 'lock-check', version: '1.0.0' } },
      };
      await writeFile(path.join(dir, 'package-lock.json'), JSON.stringify(lock));
      const ci = await npm(['ci', '--no-audit', '--no-fund'], dir);
      assert.notEqual(ci.code, 0);
      assert.match(ci.stderr, /npm error .*in sync/);
      assert.match(ci.stderr, /Missing: left-pad@1\.3\.0 from lock file/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
