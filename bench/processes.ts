import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BUILD_DIR, buildService } from '../scripts/build.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * `BENCH_PORTS=42000-42999`: take the service and baseline ports from this range (machines shared
 * with other work give each user a range); unset, any free port the system hands out.
 */
const portRange = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '');
let nextPort = portRange ? Number(portRange[1]) : 0;

function listenOn(port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' && port !== 0 ? resolve(null) : reject(error),
    );
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

export async function freePort(): Promise<number> {
  if (!portRange) return (await listenOn(0)) as number;
  const [low, high] = [Number(portRange[1]), Number(portRange[2])];
  for (let tried = 0; tried <= high - low; tried++) {
    const port = nextPort;
    nextPort = port >= high ? low : port + 1;
    const bound = await listenOn(port);
    if (bound !== null) return bound;
  }
  throw new Error(`no free port in BENCH_PORTS=${process.env.BENCH_PORTS}`);
}

export interface Proc {
  child: ChildProcess;
  port: number;
  url: string;
  stop(): Promise<void>;
  rssBytes(): Promise<number>;
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + Number(process.env.BENCH_START_SECONDS ?? 300) * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer from ${url}:\n${output()}`);
}

/**
 * Spawns `node [flags] <script>` with a free PORT and waits until it answers: TypeScript through
 * tsx, a compiled `.mjs` (the service, as `npm start` runs it) as it is.
 */
export async function spawnNode(
  script: string,
  env: Record<string, string>,
  options: { probe?: string; nodeFlags?: string[]; cwd?: string } = {},
): Promise<Proc> {
  const port = await freePort();
  let out = '';
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...loader, script], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}${options.probe ?? '/healthz'}`, child, () => out);
  } catch (error) {
    child.kill('SIGKILL'); // never leave a process that did not come up behind
    throw error;
  }
  return {
    child,
    port,
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await done;
      clearTimeout(timer);
    },
    async rssBytes() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb * 1024;
    },
  };
}

export function startBaseline(): Promise<Proc> {
  return spawnNode('bench/baseline-server.ts', {}, { probe: '/nothing' });
}

/**
 * The commit floor (bench/commit-floor-server.ts): one INSERT committed per request, to the same
 * PostgreSQL server as the service (`databaseUrl`) or, embedded, to a bare PGlite in `dataDir`.
 */
export function startCommitFloor(o: { databaseUrl?: string; dataDir: string }): Promise<Proc> {
  return spawnNode(
    'bench/commit-floor-server.ts',
    o.databaseUrl ? { FLOOR_DATABASE_URL: o.databaseUrl } : { FLOOR_DATA_DIR: o.dataDir },
    { probe: '/nothing' },
  );
}

export interface ServiceOptions {
  catalogFile: string;
  dataDir: string;
  databaseUrl?: string;
  key: string;
  extraEnv?: Record<string, string>;
  nodeFlags?: string[];
}

/** The service's environment for `o`, as every bench process starts it (log level from BENCH_LOG_LEVEL). */
export function serviceEnv(o: ServiceOptions): Record<string, string> {
  return {
    DATA_DIR: o.dataDir,
    CATALOG_FILE: o.catalogFile,
    DATA_ENCRYPTION_KEY: o.key,
    DATABASE_URL: o.databaseUrl ?? '',
    // One issuer for every process of a PostgreSQL deployment (required with DATABASE_URL).
    PUBLIC_BASE_URL: 'https://innkeep.bench',
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ...o.extraEnv,
  };
}

/**
 * The Node.js flags `npm start` gives the service in the checkout at `root` (its package.json's
 * `start` script, `node <flags> dist/server.mjs`): the bench runs the service as it is deployed,
 * with the garbage collector's young generation sized as there (none in older checkouts).
 */
export function startFlagsOf(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts?: { start?: string };
  };
  const words = (pkg.scripts?.start ?? '').split(/\s+/);
  return words.slice(words.indexOf('node') + 1).filter((word) => word.startsWith('--'));
}

/** This checkout's build, made once per bench process (the service is measured as `npm start` runs it). */
let built: Promise<void> | undefined;

/** The service as `npm start` runs it: the compiled build of this checkout, not TypeScript through tsx. */
export async function startService(o: ServiceOptions): Promise<Proc> {
  built ??= buildService(ROOT, join(ROOT, BUILD_DIR));
  await built;
  return spawnNode(`${BUILD_DIR}/server.mjs`, serviceEnv(o), {
    nodeFlags: [...startFlagsOf(ROOT), ...(o.nodeFlags ?? [])],
  });
}

export const newKey = () => randomBytes(32).toString('base64');

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A fresh database on the local server; `drop()` removes it. */
export async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  // PG_DATABASE_PREFIX (as for the tests) keeps databases of runs sharing a server apart.
  const prefix = process.env.PG_DATABASE_PREFIX ?? 'innkeep_';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix))
    throw new Error(`PG_DATABASE_PREFIX is not a SQL name: ${prefix}`);
  const name = `${prefix}bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
