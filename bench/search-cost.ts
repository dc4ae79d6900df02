/**
 * Issue 36.3 and 36.4: what a search costs, for one or more checkouts of this project, alternated
 * round by round in one run: CPU milliseconds per search of the service process (from /proc; the
 * figure the machine's other load moves least), searches/s and p50 / p99, and whether the builds
 * answer the same stays byte for byte.
 *
 *   node --import tsx bench/search-cost.ts <checkout>[,KEY=VALUE…] [<checkout>[,KEY=VALUE…] …]
 *
 * `KEY=VALUE` after a checkout sets the service's environment for that entry only. Each checkout
 * runs through tsx (`src/server.ts`), with `node_modules` of its own or linked. Every search is a
 * different stay (`searchStay` of bench/catalog.ts), as in `npm run bench`.
 *
 * Knobs: COST_ENGINE (`embedded`, the default, or `pg`: a database of its own per checkout on the
 * local server; also per entry), COST_PLAN=alpinebits (the `flex` plan replaced by the AlpineBits RatePlans message
 * of bench/features.ts, so the occupancy-priced path is the one measured; also per entry, as
 * `.,COST_PLAN=alpinebits`), COST_ROUNDS (4),
 * COST_SEARCHES per round (10,000), COST_CONNECTIONS (50), COST_TYPES (room types, 4), COST_PIN=1
 * (every service on CPU 0, this load generator on CPU 1), COST_COMPARE (stays whose answers are
 * compared across checkouts, 300), COST_PROCESSES (processes of each entry, 1: one process of a
 * build may run 20 % faster than another of the same build, so compare builds with 3 or more;
 * the summary then has a line per entry over its processes), COST_ENV (KEY=VALUE,… for every service), COST_PROF_DIR (a CPU
 * profile of each service, written when it stops), COST_BUILD=dist (each checkout's `dist/server.mjs`
 * instead of its TypeScript through tsx).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { searchStay, writeCatalog } from './catalog.ts';
import { cpuMs, type Entry, entriesOf, pin, repeated, settingsOf } from './cost-probe.ts';
import { sendRatePlans } from './features.ts';
import { type LoadResult, load } from './load.ts';
import { operatorKey } from './operator-key.ts';
import { createDatabase, newKey, type Proc, serviceEnv, spawnNode, startFlagsOf } from './processes.ts';

const rounds = Number(process.env.COST_ROUNDS ?? 4);
const searches = Number(process.env.COST_SEARCHES ?? 10_000);
const connections = Number(process.env.COST_CONNECTIONS ?? 50);
const types = Number(process.env.COST_TYPES ?? 4);
const pinned = process.env.COST_PIN === '1';
const compared = Number(process.env.COST_COMPARE ?? 300);
const extraEnv = settingsOf(process.env.COST_ENV);
const entries = repeated(entriesOf(process.argv.slice(2)), Number(process.env.COST_PROCESSES ?? 1));
const SEARCH_PATH = '/api/v1/booking/availability/search';

interface Service {
  entry: Entry;
  proc: Proc;
  drop(): Promise<void>;
  dir: string;
}

async function start(entry: Entry): Promise<Service> {
  const dir = await mkdtemp(join(os.tmpdir(), 'innkeep-search-cost-'));
  const onPostgres = (entry.env.COST_ENGINE ?? process.env.COST_ENGINE) === 'pg';
  const db = onPostgres ? await createDatabase() : { url: '', drop: async () => {} };
  const options = {
    catalogFile: await writeCatalog(dir, types),
    dataDir: join(dir, 'data'),
    key: newKey(),
    ...(db.url ? { databaseUrl: db.url } : {}),
  };
  const proc = await spawnNode(
    // COST_BUILD=dist: the checkout's compiled build (`npm run build` first), as `npm start` runs it.
    join(entry.root, process.env.COST_BUILD === 'dist' ? 'dist/server.mjs' : 'src/server.ts'),
    serviceEnv({ ...options, extraEnv: { ...extraEnv, ...entry.env } }),
    {
      // As the checkout's `npm start` runs it (its young-generation size, where it sets one).
      nodeFlags: [
        ...startFlagsOf(entry.root),
        ...(process.env.COST_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.COST_PROF_DIR] : []),
      ],
      cwd: entry.root,
    },
  );
  // COST_PLAN of the entry or of the run: an entry's own lets one run put both plans side by side.
  if ((entry.env.COST_PLAN ?? process.env.COST_PLAN) === 'alpinebits')
    await sendRatePlans(proc.url, operatorKey(options, ['inventory:write'], entry.root));
  if (pinned) pin(proc.child.pid as number, 0);
  return { entry, proc, drop: db.drop, dir };
}

interface Round extends LoadResult {
  cpuMsPerSearch: number;
  load1: number;
}

/**
 * A round searches `searches` stays from `first` on: every checkout of a round gets the same stays
 * (the mix of nights, guests and rooms moves along `searchStay`'s sequence, and with it the cost),
 * and each round a window of its own.
 */
async function round(s: Service, first: number): Promise<Round> {
  const cpu0 = await cpuMs(s.proc.child.pid as number);
  const r = await load([s.proc.url], {
    method: 'POST',
    path: () => SEARCH_PATH,
    body: (i) => JSON.stringify(searchStay(first + i)),
    connections,
    amount: searches,
  });
  const cpu1 = await cpuMs(s.proc.child.pid as number);
  return { ...r, cpuMsPerSearch: (cpu1 - cpu0) / Math.max(1, r.requests), load1: os.loadavg()[0] ?? 0 };
}

/** How many of the first `compared` stays some checkout answers differently from the first one. */
async function differences(services: Service[]): Promise<number> {
  let differing = 0;
  for (let i = 0; i < compared; i++) {
    const body = JSON.stringify(searchStay(i));
    const answers = await Promise.all(
      services.map(async (s) => {
        const res = await fetch(`${s.proc.url}${SEARCH_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        return `${res.status} ${await res.text()}`;
      }),
    );
    if (answers.some((a) => a !== answers[0])) differing += 1;
  }
  return differing;
}

const services: Service[] = [];
try {
  if (pinned) pin(process.pid, 1);
  for (const entry of entries) services.push(await start(entry));
  for (const s of services) await round(s, 0); // warm-up, not counted
  const results = new Map<string, Round[]>(entries.map((e) => [e.label, []]));
  for (let i = 0; i < rounds; i++)
    for (const s of services) {
      const r = await round(s, (i + 1) * searches);
      results.get(s.entry.label)?.push(r);
      console.log(
        `${s.entry.label}: ${r.rps.toFixed(0)}/s p50 ${r.p50} p99 ${r.p99}, ${r.cpuMsPerSearch.toFixed(3)} ms CPU per search, non-2xx ${r.non2xx}, load ${r.load1.toFixed(1)}`,
      );
    }
  const mean = (rs: Round[], k: keyof Round) => rs.reduce((n, r) => n + Number(r[k]), 0) / rs.length;
  const base = mean(results.get(entries[0]?.label as string) ?? [], 'cpuMsPerSearch');
  console.log('| checkout | searches/s | p50 / p99 ms | service CPU ms/search | ÷ first | load |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [label, rs] of results)
    console.log(
      `| ${label} | ${mean(rs, 'rps').toFixed(0)} | ${mean(rs, 'p50').toFixed(1)} / ${mean(rs, 'p99').toFixed(1)} | ${mean(rs, 'cpuMsPerSearch').toFixed(3)} | ${(mean(rs, 'cpuMsPerSearch') / base).toFixed(3)} | ${mean(rs, 'load1').toFixed(1)} |`,
    );
  const byArg = new Map<string, Round[]>();
  for (const e of entries) byArg.set(e.arg, [...(byArg.get(e.arg) ?? []), ...(results.get(e.label) ?? [])]);
  if (byArg.size < entries.length) {
    const first = mean(byArg.get(entries[0]?.arg as string) ?? [], 'cpuMsPerSearch');
    console.log('\n| entry, all its processes | service CPU ms/search | ÷ first | processes × rounds |');
    console.log('|---|---:|---:|---:|');
    for (const [arg, rs] of byArg)
      console.log(
        `| ${arg} | ${mean(rs, 'cpuMsPerSearch').toFixed(3)} | ${(mean(rs, 'cpuMsPerSearch') / first).toFixed(3)} | ${rs.length} |`,
      );
  }
  if (services.length > 1 && compared > 0)
    console.log(`answers compared on ${compared} stays: ${await differences(services)} differ`);
} finally {
  for (const s of services) {
    await s.proc.stop();
    await s.drop().catch(() => {});
    await rm(s.dir, { recursive: true, force: true });
  }
}
