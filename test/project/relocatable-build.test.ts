/**
 * Issue 40: a build runs wherever it is put, with nothing but its production install. The service
 * is built in one folder, the release (`RELEASE_FILES`, what `npm run release` packs) is copied
 * with the production packages only (no esbuild, no tsx, no TypeScript) to another, the first is
 * removed, and the copy migrates, starts, serves its pages and books, run from a third folder.
 * Before, the build held the path of the folder it was built in (`import.meta.url` defined as the
 * source's URL) and read the docs theme from `src/`: the copy found no migrations.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { buildService, RELEASE_FILES } from '../../scripts/build.ts';
import { bookOverHttp, http, type ServiceProcess } from '../helpers/service-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILD_TOOLS = ['esbuild', 'tsx', 'typescript'];

interface LockEntry {
  dev?: boolean;
}
const lockPackages = async (): Promise<Record<string, LockEntry>> =>
  JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')).packages;

const packageName = (where: string) =>
  where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);

it('npm ci --omit=dev installs no bundler and no TypeScript loader (the lockfile marks them dev)', async () => {
  const production = Object.entries(await lockPackages())
    .filter(([where, entry]) => where.startsWith('node_modules/') && !entry.dev)
    .map(([where]) => packageName(where));
  const tools = production.filter((name) => BUILD_TOOLS.includes(name) || name.startsWith('@esbuild/'));
  assert.deepEqual(tools, []);
});

const work = await mkdtemp(path.join(os.tmpdir(), 'innkeep-relocate-'));
after(() => rm(work, { recursive: true, force: true }));

/** Runs node with `args` in `cwd`; its status and output. */
function node(args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Starts `server` (a dist/server.mjs) on port 0 from `cwd`, resolving once it logs `listening on`. */
async function start(server: string, cwd: string, env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['--liftoff-only', server], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr]) {
      let buffered = '';
      stream?.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const parts = buffered.split('\n');
        buffered = parts.pop() ?? '';
        for (const line of parts) {
          lines.push(line);
          if (line.includes('listening on')) resolve((JSON.parse(line) as { port: number }).port);
        }
      });
    }
    child.on('exit', (code) =>
      reject(new Error(`the service exited ${code}:\n${lines.slice(-20).join('\n')}`)),
    );
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { child, baseUrl: `http://127.0.0.1:${port}`, stop: () => (child.kill('SIGTERM'), exited) };
}

it('a release built in one folder runs from another once the first is gone: migrates, starts, books', async () => {
  // Built where the sources are: a checkout of its own.
  const built = path.join(work, 'build-here');
  await mkdir(built);
  for (const file of ['src', 'tsconfig.json', ...RELEASE_FILES.filter((f) => f !== 'dist')]) {
    await cp(path.join(ROOT, file), path.join(built, file), { recursive: true });
  }
  await buildService(built, path.join(built, 'dist'));

  // Moved: the release's files, then the production packages as `npm ci --omit=dev` installs them
  // (the lockfile's non-dev packages; hard links, which a test can afford, not a download).
  const release = path.join(work, 'elsewhere', 'innkeep');
  await mkdir(path.join(release, 'node_modules'), { recursive: true });
  for (const file of RELEASE_FILES) {
    await cp(path.join(built, file), path.join(release, file), { recursive: true });
  }
  await rm(built, { recursive: true, force: true });
  for (const [where, entry] of Object.entries(await lockPackages())) {
    if (!where.startsWith('node_modules/') || where.indexOf('node_modules/', 1) !== -1 || entry.dev) continue;
    if (!existsSync(path.join(ROOT, where))) continue; // optional, for another platform
    await mkdir(path.dirname(path.join(release, where)), { recursive: true });
    execFileSync('cp', ['-al', path.join(ROOT, where), path.join(release, where)]);
  }
  for (const tool of BUILD_TOOLS)
    assert.equal(existsSync(path.join(release, 'node_modules', tool)), false, tool);
  assert.equal(existsSync(path.join(release, 'src')), false);

  // `npm ci --omit=dev` runs `prepare` there: without build tools it keeps the release's dist/.
  const prepared = node(['scripts/prepare.mjs'], release);
  assert.equal(prepared.code, 0, prepared.output);
  assert.match(prepared.output, /no build tools/);

  // Run from a folder that is neither: nothing depends on the working directory either.
  const elsewhere = path.join(work, 'run-from-here');
  const dataDir = path.join(work, 'data');
  await mkdir(elsewhere);
  const migrated = node([path.join(release, 'dist/cli/migrate.mjs')], elsewhere, { DATA_DIR: dataDir });
  assert.equal(migrated.code, 0, migrated.output);

  const service = await start(path.join(release, 'dist/server.mjs'), elsewhere, {
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '0',
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  try {
    assert.equal((await http(service.baseUrl, 'GET', '/readyz')).status, 200);
    const booked = await bookOverHttp(service as unknown as ServiceProcess, {
      hotelId: 'harbour-view',
      email: 'ana@example.com',
      fromToday: 20,
      nights: 2,
    });
    assert.match(booked.id, /\S/);
    // The pages (web/) and the reference page's theme (copied into dist/) are served too.
    const page = await fetch(`${service.baseUrl}/book/harbour-view`);
    assert.equal(page.status, 200);
    const docs = await fetch(`${service.baseUrl}/docs/static/swagger-initializer.js`);
    assert.equal(docs.status, 200);
  } finally {
    await service.stop();
  }

  // A production install with no dist/ and no build tools refuses rather than install a tree
  // that cannot start.
  await rm(path.join(release, 'dist'), { recursive: true });
  const refused = node(['scripts/prepare.mjs'], release);
  assert.equal(refused.code, 1, refused.output);
  assert.match(refused.output, /dist\/ is missing/);
});
