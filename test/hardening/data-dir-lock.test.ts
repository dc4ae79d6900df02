/**
 * One process per embedded database (issue 8, item 1): a second `npm start`, or a CLI, on a
 * DATA_DIR a running service holds refuses at once, naming the holder's pid, while the first keeps
 * serving; a lock left by a killed process is taken over; a graceful stop releases it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DATA_DIR_LOCKED_EXIT_CODE, LOCK_FILE } from '../../src/infra/db/data-dir-lock.ts';
import { nodeScript } from '../helpers/node-command.ts';
import { http, ROOT, run, type ServiceProcess, startService } from '../helpers/service-process.ts';
import { seededDataDir } from '../helpers/test-database.ts';

/** The year of the next 10 March at least a week away, which no demo season or restriction covers. */
const weekAhead = new Date(Date.now() + 7 * 86_400_000).toISOString();
const quietYear = Number(weekAhead.slice(0, 4)) + (weekAhead.slice(5, 10) > '03-10' ? 1 : 0);

/** The pid of a process that has exited (and so is free, and not reused this soon). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

/**
 * Runs a service or CLI that is expected to refuse: its exit code and output. One that starts
 * serving instead (the defect) is stopped and reported as `listening`, so the test fails, not hangs.
 */
async function refusal(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, nodeScript(script), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('listening on')) child.kill('SIGTERM');
    });
  }
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code: output.includes('listening on') ? 'listening' : code, output };
}

const lockOf = (dataDir: string) => path.join(dataDir, LOCK_FILE);

/** The environment of an embedded service or CLI on `dataDir`: never the suite's PostgreSQL. */
const embedded = (dataDir: string) => ({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });

describe('DATA_DIR lock (embedded engine)', () => {
  let dataDir = '';
  let first: ServiceProcess | undefined;

  before(async () => {
    dataDir = await seededDataDir('innkeep-lock-');
    first = await startService(embedded(dataDir));
  });
  after(async () => {
    await first?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('records the holder in an exclusively created lock file', async () => {
    const owner = JSON.parse(await readFile(lockOf(dataDir), 'utf8'));
    assert.equal(owner.pid, first?.child.pid);
    assert.ok(!Number.isNaN(Date.parse(owner.startedAt)));
  });

  it('a second start on the same DATA_DIR refuses, naming the pid, and the first keeps serving', async () => {
    const second = await refusal('src/server.ts', embedded(dataDir));
    assert.equal(second.code, DATA_DIR_LOCKED_EXIT_CODE, second.output);
    assert.match(second.output, new RegExp(`in use by another process \\(pid ${first?.child.pid}\\b`));

    const baseUrl = first?.baseUrl as string;
    assert.equal((await http(baseUrl, 'GET', '/readyz')).status, 200);
    const search = await http(baseUrl, 'POST', '/api/v1/booking/availability/search', {
      hotelId: 'harbour-view',
      // The demo's yearly seasons and restrictions leave 10 March alone (as the README's walk-through).
      checkIn: `${quietYear}-03-10`,
      checkOut: `${quietYear}-03-12`,
      adults: 1,
    });
    assert.equal(search.status, 200, JSON.stringify(search.body));
    assert.equal(JSON.parse(await readFile(lockOf(dataDir), 'utf8')).pid, first?.child.pid);
  });

  for (const cli of ['rotate-keys', 'purge-identity', 'migrate']) {
    it(`npm run ${cli} beside the running service refuses, naming the pid`, async () => {
      const result = await refusal(`src/cli/${cli}.ts`, embedded(dataDir));
      assert.equal(result.code, DATA_DIR_LOCKED_EXIT_CODE, result.output);
      assert.match(result.output, new RegExp(`pid ${first?.child.pid}\\b`));
      assert.equal((await http(first?.baseUrl as string, 'GET', '/readyz')).status, 200);
    });
  }

  it('a graceful stop removes the lock, and the directory is usable again', async () => {
    const exit = await first?.stop();
    assert.equal(exit?.code, 0);
    first = undefined;
    assert.equal(existsSync(lockOf(dataDir)), false);
    const migrate = await run(nodeScript('src/cli/migrate.ts'), embedded(dataDir));
    assert.equal(migrate.code, 0, migrate.stderr);
    assert.equal(existsSync(lockOf(dataDir)), false, 'the CLI releases it too');
  });
});

describe('DATA_DIR lock: a stale lock (its process is gone)', () => {
  const dirs: string[] = [];
  const services: ServiceProcess[] = [];
  after(async () => {
    for (const s of services) await s.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('is taken over by the next start', async () => {
    const dataDir = await seededDataDir('innkeep-lock-stale-');
    dirs.push(dataDir);
    const pid = await deadPid();
    await writeFile(lockOf(dataDir), JSON.stringify({ pid, startedAt: new Date().toISOString() }));
    const service = await startService(embedded(dataDir));
    services.push(service);
    assert.equal(JSON.parse(await readFile(lockOf(dataDir), 'utf8')).pid, service.child.pid);
    assert.equal((await http(service.baseUrl, 'GET', '/readyz')).status, 200);
  });

  it('is taken over by exactly one of several processes starting at once', async () => {
    // The database is made already, so the racers below differ only in the lock.
    const dataDir = await seededDataDir('innkeep-lock-race-');
    dirs.push(dataDir);
    await writeFile(lockOf(dataDir), JSON.stringify({ pid: await deadPid(), startedAt: '2020-01-01' }));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 3 }, () => startService(embedded(dataDir))),
    );
    const started = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    services.push(...started);
    assert.equal(started.length, 1, 'one process holds the directory');
    const holder = started[0] as ServiceProcess;
    for (const o of outcomes) {
      if (o.status === 'rejected') {
        assert.match(String(o.reason), new RegExp(`in use by another process \\(pid ${holder.child.pid}\\b`));
      }
    }
    assert.equal(JSON.parse(await readFile(lockOf(dataDir), 'utf8')).pid, holder.child.pid);
  });
});
