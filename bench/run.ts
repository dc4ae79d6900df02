/**
 * `npm run bench`: throughput and latency of the real service (child processes) next to a bare
 * Fastify baseline measured alternately in the same run; search latency as data grows; memory over
 * a sustained run. Writes BENCHMARKS.md and bench/results/<BENCH_LABEL>.json. Knobs: see README
 * of BENCHMARKS.md (BENCH_* environment variables below).
 */
import { execFileSync, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { openEmbeddedDatabase } from '../src/infra/db/pglite.ts';
import { calendarPath, searchStay, stays, writeCatalog } from './catalog.ts';
import { type FeaturesResult, featuresVariant } from './features.ts';
import { type LoadResult, type LoadSpec, load, meanOf } from './load.ts';
import { operatorKey } from './operator-key.ts';
import {
  createDatabase,
  newKey,
  type Proc,
  postgresReachable,
  ROOT,
  type ServiceOptions,
  startBaseline,
  startCommitFloor,
  startService,
} from './processes.ts';
import { makeQuotes } from './quotes.ts';
import { FLOOR_HEADER, floorRows, renderReport, row } from './report.ts';
import { seedReservations } from './seed.ts';
import { smtpSink } from './smtp-sink.ts';
import type { ViewMemory } from './view-memory.ts';
import { subscribeWebhook } from './webhook-receiver.ts';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const SCENARIOS = ['search', 'calendar', 'quote', 'reservation', 'reservation-webhook', 'checkin-read'];
const VARIANTS = ['embedded', 'pg1', 'pg2'];
const SECTIONS = ['throughput', 'growth', 'soak', 'view', 'features'];
/** Short names on the command line: `npm run bench -- booking` runs the reservation scenario. */
const ALIASES: Record<string, string> = {
  booking: 'reservation',
  bookings: 'reservation',
  'booking-webhook': 'reservation-webhook',
  checkin: 'checkin-read',
  embedded: 'embedded',
  pg: 'pg1',
};

/**
 * `npm run bench -- [scenario…] [variant…] [section…]`: words on the command line narrow the run
 * (e.g. `npm run bench -- booking pg1`); naming a scenario or variant without a section runs the
 * throughput section only. Such a partial run writes bench/results/<label>.md (not BENCHMARKS.md)
 * and prints its table. The BENCH_* variables still apply where no word overrides them.
 */
function commandLine(argv: string[]) {
  const words = argv.map((w) => ALIASES[w] ?? w);
  const unknown = words.filter((w) => ![...SCENARIOS, ...VARIANTS, ...SECTIONS].includes(w));
  if (unknown.length > 0) {
    console.error(
      `unknown bench word(s): ${unknown.join(', ')}; known: ${[...SCENARIOS, ...VARIANTS, ...SECTIONS, ...Object.keys(ALIASES)].join(', ')}`,
    );
    process.exit(2);
  }
  const scenarios = words.filter((w) => SCENARIOS.includes(w));
  const variants = words.filter((w) => VARIANTS.includes(w));
  const sections = words.filter((w) => SECTIONS.includes(w));
  return {
    partial: words.length > 0,
    label: words.join('-'),
    scenarios: scenarios.length > 0 ? scenarios.join(',') : undefined,
    variants: variants.length > 0 ? variants.join(',') : undefined,
    sections: sections.length > 0 ? sections.join(',') : words.length > 0 ? 'throughput' : undefined,
  };
}
const cli = commandLine(process.argv.slice(2));
const label = process.env.BENCH_LABEL ?? (cli.partial ? cli.label : 'latest');

export const settings = {
  duration: num('BENCH_DURATION_SECONDS', 5),
  warmup: num('BENCH_WARMUP_SECONDS', 2),
  rounds: num('BENCH_ROUNDS', 2),
  connections: num('BENCH_CONNECTIONS', 50),
  reservationsPerRound: num('BENCH_RESERVATIONS_PER_ROUND', 1500),
  soakSeconds: num('BENCH_SOAK_SECONDS', 45),
  growthSizes: list('BENCH_GROWTH_SIZES', '1000,100000,1000000').map(Number),
  growthTypes: list('BENCH_GROWTH_TYPES', '1,50').map(Number),
  sections: cli.sections?.split(',') ?? list('BENCH_SECTIONS', SECTIONS.join(',')),
  variants: cli.variants?.split(',') ?? list('BENCH_VARIANTS', VARIANTS.join(',')),
  scenarios: cli.scenarios?.split(',') ?? list('BENCH_SCENARIOS', SCENARIOS.join(',')),
  label,
  out:
    process.env.BENCH_OUT ??
    (cli.partial ? join(ROOT, 'bench', 'results', `${label}.md`) : join(ROOT, 'BENCHMARKS.md')),
  cpuProfDir: process.env.BENCH_CPU_PROF_DIR ?? '',
  /** Guest messages: `smtp` sends them to an SMTP sink in this process; `off` runs no mail worker. */
  mail: process.env.BENCH_MAIL ?? 'default',
};

export interface ScenarioResult {
  variant: string;
  scenario: string;
  processes: number;
  target: LoadResult | null;
  baseline: LoadResult | null;
  /** Bookings only: the commit floor (one INSERT committed per request), alternated in the same run. */
  floor?: LoadResult | null;
  note?: string;
}
export interface GrowthResult {
  reservations: number;
  roomTypes: number;
  seedSeconds: number;
  inventoryRows: number;
  search: LoadResult;
}
export interface SoakResult {
  seconds: number;
  rssStart: number;
  rssEnd: number;
  rssPeak: number;
  heapStart: number;
  heapEnd: number;
  samples: Array<{ t: number; rss: number }>;
  search: LoadResult;
}
export interface Results {
  startedAt: string;
  finishedAt?: string;
  machine: Record<string, string | number>;
  settings: typeof settings;
  throughput: ScenarioResult[];
  growth: GrowthResult[];
  soak: SoakResult | null;
  view?: ViewMemory | null;
  /** Search and booking with every feature in use next to none (bench/features.ts). */
  features?: FeaturesResult[];
  /** When `features` comes from a later partial run (`npm run bench -- features`) spliced in. */
  featuresRun?: { startedAt: string; finishedAt: string };
  skipped: string[];
}

const log = (msg: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

function machine() {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  let pgVersion = 'n/a';
  try {
    pgVersion = execSync('psql --version', { encoding: 'utf8' }).trim();
  } catch {}
  return {
    nproc: os.availableParallelism(),
    cpu,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    postgres: pgVersion,
  };
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux; 0 elsewhere). */
async function cpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Runs `target` and adds the CPU the service processes spent on it, per request answered. */
function withCpu(processes: Proc[], target: () => Promise<LoadResult>): () => Promise<LoadResult> {
  return async () => {
    const before = await Promise.all(processes.map((p) => cpuMs(p.child.pid)));
    const result = await target();
    const after = await Promise.all(processes.map((p) => cpuMs(p.child.pid)));
    const spent = after.reduce((n, a, i) => n + a - (before[i] ?? 0), 0);
    return { ...result, ...(result.requests > 0 ? { cpuMsPerRequest: spent / result.requests } : {}) };
  };
}

async function fetchJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function makeSessions(url: string, count: number, types: number): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, stay] of stays(count, types).entries()) {
    const quote = await fetchJson(`${url}/api/v1/booking/quote`, stay);
    const created = await fetchJson(`${url}/api/v1/booking/reservations`, {
      quoteId: quote.body.id,
      guest: { firstName: 'Ana', lastName: `Silva${i}`, email: 'ana@example.com' },
    });
    const session = await fetchJson(`${url}/api/v1/checkin/sessions`, {
      reservationId: created.body.id,
      lastName: `Silva${i}`,
    });
    const id = (session.body.session as { id?: string } | undefined)?.id;
    if (!id) throw new Error(`could not open a check-in session: ${JSON.stringify(session.body)}`);
    ids.push(id);
  }
  return ids;
}

async function hasCheckin(url: string): Promise<boolean> {
  const doc = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, unknown>;
  };
  return Boolean(doc.paths['/api/v1/checkin/sessions/{session}']);
}

/** Alternates baseline and target runs of one scenario (and the commit floor, if any); returns the means. */
async function alternate(
  target: () => Promise<LoadResult>,
  baseline: () => Promise<LoadResult>,
  floor?: () => Promise<LoadResult>,
) {
  const t: LoadResult[] = [];
  const b: LoadResult[] = [];
  const f: LoadResult[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    b.push(await baseline());
    if (floor) f.push(await floor());
    t.push(await target());
  }
  return { target: meanOf(t), baseline: meanOf(b), ...(floor ? { floor: meanOf(f) } : {}) };
}

async function throughputVariant(variant: string, results: Results, pgUp: boolean) {
  const processes = variant === 'pg2' ? 2 : 1;
  const pg = variant.startsWith('pg');
  if (pg && !pgUp) {
    results.skipped.push(`${variant}: no PostgreSQL server reachable`);
    return;
  }
  const dir = await mkdtemp(join(os.tmpdir(), 'innkeep-bench-'));
  const types = 4;
  const db = pg ? await createDatabase() : null;
  const services: Proc[] = [];
  const baselines: Proc[] = [];
  const floors: Proc[] = [];
  const sink = settings.mail === 'smtp' ? await smtpSink() : null;
  const mailEnv: Record<string, string> = sink
    ? { SMTP_URL: sink.url }
    : settings.mail === 'off'
      ? { MAIL_WORKER: 'false' }
      : {};
  try {
    const options: ServiceOptions = {
      catalogFile: await writeCatalog(dir, types),
      dataDir: join(dir, 'data'),
      key: newKey(),
      ...(db ? { databaseUrl: db.url } : {}),
      // The reservation-webhook scenario subscribes a receiver on 127.0.0.1.
      extraEnv: { WEBHOOK_ALLOW_PRIVATE: 'true', ...mailEnv },
      ...(settings.cpuProfDir ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${settings.cpuProfDir}`] } : {}),
    };
    for (let i = 0; i < processes; i++) services.push(await startService(options));
    for (let i = 0; i < processes; i++) baselines.push(await startBaseline());
    const urls = services.map((s) => s.url);
    const baseUrls = baselines.map((s) => s.url);
    const first = urls[0] as string;
    log(`${variant}: ${processes} process(es) up`);

    const searchBody = (i: number) => JSON.stringify(searchStay(i));
    const quoteBodies = stays(200, types).map((s) => JSON.stringify(s));
    const baselineSpec = (duration: number): LoadSpec => ({
      method: 'POST',
      path: () => '/',
      body: searchBody,
      connections: settings.connections,
      duration,
    });
    const baseline = () => load(baseUrls, baselineSpec(settings.duration));
    const warm = async (spec: LoadSpec) => {
      if (settings.warmup <= 0) return;
      await load(urls, { ...spec, duration: settings.warmup, amount: undefined });
      await load(baseUrls, baselineSpec(settings.warmup));
    };

    for (const scenario of settings.scenarios) {
      log(`${variant}: ${scenario}`);
      if (scenario === 'search' || scenario === 'quote') {
        const spec: LoadSpec = {
          method: 'POST',
          path: () => `/api/v1/booking/${scenario === 'search' ? 'availability/search' : 'quote'}`,
          body: (i) =>
            scenario === 'search' ? searchBody(i) : (quoteBodies[i % quoteBodies.length] as string),
          connections: settings.connections,
          duration: settings.duration,
        };
        await warm(spec);
        const r = await alternate(
          withCpu(services, () => load(urls, spec)),
          baseline,
        );
        results.throughput.push({ variant, scenario, processes, ...r });
      } else if (scenario === 'calendar') {
        // The price calendar of 60 nights (API.md 9.1: a few milliseconds), beside search's figure.
        const spec: LoadSpec = {
          method: 'GET',
          path: calendarPath,
          connections: settings.connections,
          duration: settings.duration,
        };
        await warm(spec);
        const r = await alternate(
          withCpu(services, () => load(urls, spec)),
          baseline,
        );
        results.throughput.push({ variant, scenario, processes, ...r });
      } else if (scenario === 'reservation' || scenario === 'reservation-webhook') {
        // The same bookings with one webhook endpoint subscribed to reservation.* (issue 11: the
        // outbox's cost), measured in the same run as the plain reservation scenario.
        const hook =
          scenario === 'reservation-webhook'
            ? await subscribeWebhook(first, operatorKey(options, ['webhooks:write']))
            : null;
        // The floor of a booking: one INSERT committed per request, to the same PostgreSQL server
        // (or a bare PGlite on disk), the same number of processes, requests and connections.
        if (floors.length === 0)
          for (let i = 0; i < processes; i++)
            floors.push(
              await startCommitFloor({
                ...(db ? { databaseUrl: db.url } : {}),
                dataDir: join(dir, `floor-${i}`),
              }),
            );
        const floorUrls = floors.map((f) => f.url);
        const floor = () =>
          load(floorUrls, {
            method: 'POST',
            path: () => '/',
            body: (i) => JSON.stringify({ quoteId: `q${i}`, guest: { lastName: 'Silva' } }),
            connections: settings.connections,
            amount: settings.reservationsPerRound,
          });
        const quotesFor = () => makeQuotes(urls, settings.reservationsPerRound, types);
        // Each booking is a different guest with an address of their own: one address for all
        // would serialise the bookings on guest messages' per-address cap lock (API.md 10), which
        // real guests do not share, and leave every message after the tenth capped (not queued).
        const run = Math.random().toString(36).slice(2, 8);
        const reserve = async () => {
          const ids = await quotesFor();
          let next = 0; // shared by the load of every process: each quote is booked once
          return load(urls, {
            method: 'POST',
            path: () => '/api/v1/booking/reservations',
            body: () =>
              JSON.stringify({
                quoteId: ids[next % ids.length],
                guest: { firstName: 'Ana', lastName: 'Silva', email: `ana.${run}.${next++}@example.com` },
              }),
            connections: settings.connections,
            amount: ids.length,
          });
        };
        try {
          if (settings.warmup > 0) {
            await reserve();
            await floor();
          }
          const r = await alternate(reserve, baseline, floor);
          const note = hook ? `${hook.delivered()} webhook deliveries received during the run` : undefined;
          results.throughput.push({ variant, scenario, processes, ...r, ...(note ? { note } : {}) });
        } finally {
          await hook?.close();
        }
      } else if (scenario === 'checkin-read') {
        if (!(await hasCheckin(first))) {
          results.throughput.push({
            variant,
            scenario,
            processes,
            target: null,
            baseline: null,
            note: 'not measured: no check-in routes',
          });
          continue;
        }
        const ids = await makeSessions(first, 100, types);
        const spec: LoadSpec = {
          method: 'GET',
          path: (i) => `/api/v1/checkin/sessions/${ids[i % ids.length]}`,
          connections: settings.connections,
          duration: settings.duration,
        };
        await warm(spec);
        const r = await alternate(
          withCpu(services, () => load(urls, spec)),
          baseline,
        );
        results.throughput.push({ variant, scenario, processes, ...r });
      }
    }
  } finally {
    await Promise.all([...services, ...baselines, ...floors].map((p) => p.stop()));
    if (sink) log(`${variant}: ${sink.accepted()} guest messages accepted by the SMTP sink`);
    sink?.close();
    await db?.drop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}

/** A service over a store of `count` reservations and `types` room types, seeded while stopped. */
interface GrowthService {
  reservations: number;
  roomTypes: number;
  seedSeconds: number;
  inventoryRows: number;
  service: Proc;
  dir: string;
}

/** Starts a service on a new embedded store of `count` reservations (seeded while no process holds it). */
async function growthService(count: number, types: number): Promise<GrowthService> {
  const dir = await mkdtemp(join(os.tmpdir(), 'innkeep-growth-'));
  try {
    const options: ServiceOptions = {
      catalogFile: await writeCatalog(dir, types),
      dataDir: join(dir, 'data'),
      key: newKey(),
    };
    // First start applies the migrations and the catalogue; then seed while no process holds the files.
    await (await startService(options)).stop();
    // Profiled (BENCH_CPU_PROF_DIR) only from here: the start-up above does not search.
    if (settings.cpuProfDir) options.nodeFlags = ['--cpu-prof', `--cpu-prof-dir=${settings.cpuProfDir}`];
    const started = Date.now();
    const db = await openEmbeddedDatabase(join(dir, 'data', 'pgdata'));
    await seedReservations(db, count, types);
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM inventory');
    await db.close();
    const seedSeconds = (Date.now() - started) / 1000;
    const service = await startService(options);
    return {
      reservations: count,
      roomTypes: types,
      seedSeconds,
      inventoryRows: rows.rows[0]?.n ?? 0,
      service,
      dir,
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Search against each `[reservations, room types]` point, embedded engine: every point's service
 * up at once, then their rounds alternated (point 1, point 2, …, again), so points compared with
 * each other (50 room types against 4) share the machine's moments as the baseline rounds do.
 */
async function growthPoints(points: Array<[count: number, types: number]>): Promise<GrowthResult[]> {
  const services: GrowthService[] = [];
  try {
    for (const [count, types] of points) services.push(await growthService(count, types));
    const spec: LoadSpec = {
      method: 'POST',
      path: () => '/api/v1/booking/availability/search',
      body: (i) => JSON.stringify(searchStay(i)),
      connections: settings.connections,
      duration: settings.duration,
    };
    if (settings.warmup > 0)
      for (const s of services) await load([s.service.url], { ...spec, duration: settings.warmup });
    const runs: LoadResult[][] = services.map(() => []);
    for (let round = 0; round < settings.rounds; round++)
      for (const [i, s] of services.entries())
        runs[i]?.push(await withCpu([s.service], () => load([s.service.url], spec))());
    return services.map((s, i) => ({
      reservations: s.reservations,
      roomTypes: s.roomTypes,
      seedSeconds: s.seedSeconds,
      inventoryRows: s.inventoryRows,
      search: meanOf(runs[i] ?? []),
    }));
  } finally {
    for (const s of services) {
      await s.service.stop();
      await rm(s.dir, { recursive: true, force: true });
    }
  }
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

async function soak(): Promise<SoakResult> {
  const dir = await mkdtemp(join(os.tmpdir(), 'innkeep-soak-'));
  const types = 4;
  const service = await startService({
    catalogFile: await writeCatalog(dir, types),
    dataDir: join(dir, 'data'),
    key: newKey(),
  });
  try {
    const spec: LoadSpec = {
      method: 'POST',
      path: () => '/api/v1/booking/availability/search',
      body: (i) => JSON.stringify(searchStay(i)),
      connections: settings.connections,
    };
    await load([service.url], { ...spec, duration: Math.max(settings.warmup, 5) });
    const rssStart = await service.rssBytes();
    const heapStart = await metric(service.url, 'nodejs_heap_size_used_bytes');
    const samples: Array<{ t: number; rss: number }> = [{ t: 0, rss: rssStart }];
    const t0 = Date.now();
    const timer = setInterval(
      () => {
        void service.rssBytes().then((rss) => samples.push({ t: Math.round((Date.now() - t0) / 1000), rss }));
      },
      Math.max(1000, (settings.soakSeconds * 1000) / 20),
    );
    const search = await load([service.url], { ...spec, duration: settings.soakSeconds });
    clearInterval(timer);
    const rssEnd = await service.rssBytes();
    const heapEnd = await metric(service.url, 'nodejs_heap_size_used_bytes');
    samples.push({ t: settings.soakSeconds, rss: rssEnd });
    return {
      seconds: settings.soakSeconds,
      rssStart,
      rssEnd,
      rssPeak: Math.max(...samples.map((s) => s.rss)),
      heapStart,
      heapEnd,
      samples,
      search,
    };
  } finally {
    await service.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function writeReport(results: Results) {
  const beforeFile = join(ROOT, 'bench', 'results', 'before.json');
  const before =
    settings.label !== 'before' && existsSync(beforeFile)
      ? (JSON.parse(await readFile(beforeFile, 'utf8')) as Results)
      : null;
  const notesFile = join(ROOT, 'bench', 'NOTES.md');
  const notes = existsSync(notesFile) ? await readFile(notesFile, 'utf8') : '';
  await writeFile(settings.out, renderReport(results, before, notes));
  log(`wrote ${settings.out}`);
  if (cli.partial) {
    console.log(
      [
        `load average during the run: mean ${results.machine.loadAverageMean ?? 'n/a'}, max ${results.machine.loadAverageMax ?? 'n/a'}`,
        '| variant | scenario | req/s | p50 | p99 | baseline req/s | baseline p50 / p99 | ratio | service CPU ms/request | non-2xx + errors |',
        ...results.throughput.map(row),
        ...(floorRows(results).length > 0 ? ['', ...FLOOR_HEADER, ...floorRows(results)] : []),
      ].join('\n'),
    );
  }
}

async function main() {
  if (process.env.BENCH_REPORT_ONLY === '1') {
    // Re-renders the report from the stored results (e.g. after editing bench/NOTES.md).
    const file = join(ROOT, 'bench', 'results', `${settings.label}.json`);
    await writeReport(JSON.parse(await readFile(file, 'utf8')) as Results);
    return;
  }
  const results: Results = {
    startedAt: new Date().toISOString(),
    machine: machine(),
    settings,
    throughput: [],
    growth: [],
    soak: null,
    skipped: [],
  };
  log(`settings ${JSON.stringify(settings)}`);
  // Other work on the machine skews every figure: record how busy it was while the bench ran.
  const loads: number[] = [];
  const loadTimer = setInterval(() => loads.push(os.loadavg()[0] ?? 0), 5_000);
  loadTimer.unref();
  const pgUp = await postgresReachable();
  if (settings.sections.includes('throughput')) {
    for (const variant of settings.variants) await throughputVariant(variant, results, pgUp);
  }
  if (settings.sections.includes('growth')) {
    // The middle size's 4 room types and the other counts of room types alternate in one group
    // (the goal compares 50 with 4); each other size runs on its own.
    const middle = settings.growthSizes[Math.floor(settings.growthSizes.length / 2)] ?? 1000;
    const byTypes: GrowthResult[] = [];
    for (const size of settings.growthSizes) {
      const types = size === middle ? [4, ...settings.growthTypes.filter((t) => t !== 4)] : [4];
      log(
        `growth: ${size} reservations, ${types.join(' and ')} room types${types.length > 1 ? ', alternated' : ''}`,
      );
      const [four, ...others] = await growthPoints(types.map((t) => [size, t]));
      if (four) results.growth.push(four);
      byTypes.push(...others);
    }
    results.growth.push(...byTypes);
  }
  if (settings.sections.includes('soak')) {
    log(`soak: ${settings.soakSeconds} s of search`);
    results.soak = await soak();
  }
  if (settings.sections.includes('features')) {
    results.features = [];
    for (const variant of ['embedded', 'pg1'] as const) {
      if (!settings.variants.includes(variant)) continue;
      if (variant === 'pg1' && !pgUp) {
        results.skipped.push('features pg1: no PostgreSQL server reachable');
        continue;
      }
      log(`features: ${variant}`);
      results.features.push(...(await featuresVariant(variant, settings, log)));
    }
  }
  if (settings.sections.includes('view')) {
    log('view: the in-memory view of 50 hotels × 50 room types × 500 nights');
    // Its own process, with a garbage collector it can call, so the heap figure is the view's alone.
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/view-memory.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    results.view = JSON.parse(out.trim().split('\n').at(-1) as string) as ViewMemory;
  }
  clearInterval(loadTimer);
  results.finishedAt = new Date().toISOString();
  if (loads.length > 0) {
    results.machine.loadAverageMean = Math.round((loads.reduce((n, l) => n + l, 0) / loads.length) * 10) / 10;
    results.machine.loadAverageMax = Math.round(Math.max(...loads) * 10) / 10;
  }
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(
    join(ROOT, 'bench', 'results', `${settings.label}.json`),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  await writeReport(results);
}

await main();
