/**
 * Issue 36.2: what a booking costs on PostgreSQL, for one or more checkouts of this project,
 * alternated round by round in one run: bookings/s, p50 / p99, and the figures the machine's load
 * moves least — CPU milliseconds per booking of the service process and of its PostgreSQL
 * backends (from /proc), and statements per booking (counted in the service's `pg` client).
 *
 *   node --import tsx bench/booking-cost.ts <checkout>[,KEY=VALUE…] [<checkout>[,KEY=VALUE…] …]
 *
 * `KEY=VALUE` after a checkout sets the service's environment for that entry only (the same
 * checkout may be given twice, with and without a setting). `COST_EMAIL=same` for an entry books
 * every stay for one guest address (the old bench's way: guest messages' per-address cap then
 * serialises the bookings on its lock); by default each booking has an address of its own.
 *
 * `COST_ENGINE=embedded` runs every service on the embedded engine instead (PGlite in the service
 * process, in its own DATA_DIR): the service's CPU per booking is then the engine's too, and no
 * statement is counted (they do not go through `pg`).
 *
 * Each checkout runs through tsx (`src/server.ts`: old checkouts have no compiled build), with
 * `node_modules` of its own or linked. Knobs: COST_ROUNDS (3), COST_BOOKINGS (600),
 * COST_CONNECTIONS (50), COST_ENV (extra KEY=VALUE,… for every service), COST_PROF_DIR (a CPU
 * profile of each service, written when it stops).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { writeCatalog } from './catalog.ts';
import { cpuMs, type Entry, entriesOf, settingsOf } from './cost-probe.ts';
import { type LoadResult, load } from './load.ts';
import { createDatabase, newKey, type Proc, ROOT, serviceEnv, spawnNode, startFlagsOf } from './processes.ts';
import { makeQuotes } from './quotes.ts';

const rounds = Number(process.env.COST_ROUNDS ?? 3);
const embedded = process.env.COST_ENGINE === 'embedded';
const bookings = Number(process.env.COST_BOOKINGS ?? 600);
const connections = Number(process.env.COST_CONNECTIONS ?? 50);
const extraEnv = settingsOf(process.env.COST_ENV);
const entries = entriesOf(process.argv.slice(2));

interface Build {
  entry: Entry;
  service: Proc;
  dbUrl: string | null;
  drop(): Promise<void>;
  countFile: string;
  dir: string;
}

async function start(entry: Entry): Promise<Build> {
  const { root } = entry;
  const dir = await mkdtemp(join(os.tmpdir(), 'innkeep-cost-'));
  const db = embedded ? { url: null, drop: async () => {} } : await createDatabase();
  const countFile = join(dir, 'queries');
  const service = await spawnNode(
    join(root, 'src/server.ts'),
    serviceEnv({
      dataDir: join(dir, 'data'),
      catalogFile: await writeCatalog(dir, 4),
      key: newKey(),
      ...(db.url === null ? {} : { databaseUrl: db.url }),
      extraEnv: { QUERY_COUNT_FILE: countFile, ...extraEnv, ...entry.env },
    }),
    {
      nodeFlags: [
        // As the checkout's `npm start` runs it (its young-generation size, where it sets one).
        ...startFlagsOf(root),
        '--import',
        join(ROOT, 'bench/count-queries.mjs'),
        // COST_PROF_DIR: a CPU profile of each service (bench/profile-summary.ts reads them).
        ...(process.env.COST_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.COST_PROF_DIR] : []),
      ],
      cwd: root,
    },
  );
  return { entry, service, dbUrl: db.url, drop: db.drop, countFile, dir };
}

interface Counts {
  count: number;
  byText: Record<string, number>;
}
async function counts(b: Build): Promise<Counts> {
  b.service.child.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, 200));
  return JSON.parse(await readFile(b.countFile, 'utf8').catch(() => '{"count":0,"byText":{}}')) as Counts;
}

async function backendsCpu(b: Build): Promise<number> {
  if (b.dbUrl === null) return 0;
  const client = new pg.Client({ connectionString: b.dbUrl });
  await client.connect();
  const name = new URL(b.dbUrl).pathname.slice(1);
  const { rows } = await client.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [name],
  );
  await client.end();
  let sum = 0;
  for (const { pid } of rows) sum += await cpuMs(pid);
  return sum;
}

interface Round extends LoadResult {
  serviceCpuMs: number;
  backendCpuMs: number;
  statements: number;
  /** Statements per booking by text (the first 160 characters), largest first. */
  texts: Array<[string, number]>;
  load1: number;
}

async function round(b: Build): Promise<Round> {
  const ids = await makeQuotes([b.service.url], bookings, 4);
  // The backends are the pool's: read their CPU before and after (the pool keeps them open).
  const cpu0 = await cpuMs(b.service.child.pid as number);
  const db0 = await backendsCpu(b);
  const q0 = await counts(b);
  let next = 0;
  const sameEmail = b.entry.env.COST_EMAIL === 'same';
  const r = await load([b.service.url], {
    method: 'POST',
    path: () => '/api/v1/booking/reservations',
    body: () =>
      JSON.stringify({
        quoteId: ids[next++ % ids.length],
        guest: {
          firstName: 'Ana',
          lastName: 'Silva',
          email: sameEmail
            ? 'ana@example.com'
            : `ana.${next}.${Math.random().toString(36).slice(2)}@example.com`,
        },
      }),
    connections,
    amount: ids.length,
  });
  const q1 = await counts(b);
  const db1 = await backendsCpu(b);
  const cpu1 = await cpuMs(b.service.child.pid as number);
  // Per booking made: a shed or failed request (non-2xx) costs far less and is not one.
  const n = Math.max(1, r.requests - r.non2xx - r.errors);
  // The two SIGUSR2 reads between the snapshots cost no statement.
  return {
    ...r,
    serviceCpuMs: (cpu1 - cpu0) / n,
    backendCpuMs: (db1 - db0) / n,
    statements: (q1.count - q0.count) / n,
    texts: Object.entries(q1.byText)
      .map(([t, c]) => [t, (c - (q0.byText[t] ?? 0)) / n] as [string, number])
      .filter(([, c]) => c > 0.005)
      .sort((a, z) => z[1] - a[1]),
    load1: os.loadavg()[0] ?? 0,
  };
}

const showTexts = process.env.COST_TEXTS === '1';
const builds: Build[] = [];
try {
  for (const entry of entries) builds.push(await start(entry));
  // Warm-up: one round each, not counted.
  for (const b of builds) await round(b);
  const results = new Map<string, Round[]>(entries.map((e) => [e.label, []]));
  for (let i = 0; i < rounds; i++)
    for (const b of builds) {
      const r = await round(b);
      results.get(b.entry.label)?.push(r);
      console.log(
        `${b.entry.label}: ${r.rps.toFixed(0)}/s p50 ${r.p50} p99 ${r.p99}, service ${r.serviceCpuMs.toFixed(2)} ms, backends ${r.backendCpuMs.toFixed(2)} ms, ${r.statements.toFixed(2)} statements per booking, non-2xx ${r.non2xx}, load ${r.load1.toFixed(1)}`,
      );
      if (showTexts) for (const [t, c] of r.texts) console.log(`  ${c.toFixed(2)}  ${t}`);
    }
  const mean = (rs: Round[], k: keyof Round) => rs.reduce((n, r) => n + Number(r[k]), 0) / rs.length;
  console.log(
    '| checkout | bookings/s | p50 / p99 ms | service CPU ms/booking | PostgreSQL backends CPU ms/booking | statements/booking | load |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [root, rs] of results)
    console.log(
      `| ${root} | ${mean(rs, 'rps').toFixed(0)} | ${mean(rs, 'p50').toFixed(0)} / ${mean(rs, 'p99').toFixed(0)} | ${mean(rs, 'serviceCpuMs').toFixed(2)} | ${mean(rs, 'backendCpuMs').toFixed(2)} | ${mean(rs, 'statements').toFixed(2)} | ${mean(rs, 'load1').toFixed(1)} |`,
    );
} finally {
  for (const b of builds) {
    await b.service.stop();
    await b.drop().catch(() => {});
    await rm(b.dir, { recursive: true, force: true });
  }
}
