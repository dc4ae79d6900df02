import type { LoadResult } from './load.ts';
import type { Results, ScenarioResult } from './run.ts';

/** Issue 11: the outbox and one subscribed endpoint cost at most 10 % of reservation throughput. */
const GOAL_WEBHOOK_SHARE = 0.9;
const GOAL_SEARCH_RATIO = 0.4;
const GOAL_SEARCH_P99_MS = 10;
const GOAL_RESERVATIONS_PER_SECOND = 1000;
const GOAL_RESERVATION_P99_PG_MS = 50;
const GOAL_RESERVATION_P99_EMBEDDED_MS = 150;
const GOAL_MANY_TYPES_SHARE = 0.5;
const GOAL_CHECKIN_READ_RATIO = 0.25;
const GOAL_GROWTH_FACTOR = 1.25;
const GOAL_RSS_GROWTH = 0.1;
/** Issue 36: a booking at least half as fast as one bare durable commit, p99 within 3 × p50. */
const GOAL_FLOOR_SHARE = 0.5;
const GOAL_FLOOR_TAIL = 3;
/** Issue 36: with every feature in use, search and booking at least 0.9 × the figures without. */
const GOAL_FEATURES_SHARE = 0.9;

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ms = (n: number) => fmt(n, n < 10 ? 2 : 1);
const mib = (bytes: number) => `${fmt(bytes / 2 ** 20, 1)} MiB`;

export function row(r: ScenarioResult): string {
  if (!r.target || !r.baseline)
    return `| ${r.variant} | ${r.scenario} | ${r.note ?? 'not measured'} | | | | | | |`;
  const t = r.target;
  const b = r.baseline;
  const cpu = t.cpuMsPerRequest === undefined ? '' : fmt(t.cpuMsPerRequest, 3);
  return `| ${r.variant} | ${r.scenario} | ${fmt(t.rps)} | ${ms(t.p50)} | ${ms(t.p99)} | ${fmt(b.rps)} | ${ms(b.p50)} / ${ms(b.p99)} | **${fmt((t.rps / b.rps) * 100, 1)} %** | ${cpu} | ${t.non2xx + t.errors} |`;
}

/** Bookings next to the commit floor (one INSERT committed per request) of the same run. */
export function floorRows(results: Results): string[] {
  return results.throughput
    .filter((r) => r.target && r.floor)
    .map((r) => {
      const t = r.target as LoadResult;
      const f = r.floor as LoadResult;
      return `| ${r.variant} | ${r.scenario} | ${fmt(t.rps)} | ${ms(t.p50)} / ${ms(t.p99)} | ${fmt(f.rps)} | ${ms(f.p50)} / ${ms(f.p99)} | **${fmt(t.rps / f.rps, 2)}** | ${fmt(t.p99 / t.p50, 1)} |`;
    });
}

export const FLOOR_HEADER = [
  '| variant | scenario | bookings/s | p50 / p99 | floor commits/s | floor p50 / p99 | bookings ÷ floor | booking p99 ÷ p50 |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
];

function find(results: Results, variant: string, scenario: string): LoadResult | null {
  return results.throughput.find((r) => r.variant === variant && r.scenario === scenario)?.target ?? null;
}

function goals(results: Results): string[] {
  const lines: string[] = [];
  const verdict = (ok: boolean | null) => (ok === null ? 'not measured' : ok ? '**met**' : '**not met yet**');
  for (const variant of ['embedded', 'pg1']) {
    const r = results.throughput.find((x) => x.variant === variant && x.scenario === 'search');
    if (!r?.target || !r.baseline) {
      lines.push(
        `| search ≥ ${GOAL_SEARCH_RATIO * 100} % of baseline, p99 < ${GOAL_SEARCH_P99_MS} ms (${variant}, 1 process) | not measured |`,
      );
      continue;
    }
    const ratio = r.target.rps / r.baseline.rps;
    lines.push(
      `| search ≥ ${GOAL_SEARCH_RATIO * 100} % of baseline, p99 < ${GOAL_SEARCH_P99_MS} ms (${variant}, 1 process, ${results.settings.connections} connections) | ${fmt(ratio * 100, 1)} %, p99 ${ms(r.target.p99)} ms: ${verdict(ratio >= GOAL_SEARCH_RATIO && r.target.p99 < GOAL_SEARCH_P99_MS)} |`,
    );
  }
  for (const variant of ['embedded', 'pg1']) {
    const r = results.throughput.find((x) => x.variant === variant && x.scenario === 'checkin-read');
    const what = `check-in session read (signed) ≥ ${GOAL_CHECKIN_READ_RATIO * 100} % of baseline (${variant}, 1 process, ${results.settings.connections} connections)`;
    if (!r?.target || !r.baseline) {
      lines.push(`| ${what} | ${r?.note ?? 'not measured'} |`);
      continue;
    }
    const ratio = r.target.rps / r.baseline.rps;
    lines.push(
      `| ${what} | ${fmt(r.target.rps)} ÷ ${fmt(r.baseline.rps)} req/s = ${fmt(ratio * 100, 1)} %, p99 ${ms(r.target.p99)} ms: ${verdict(ratio >= GOAL_CHECKIN_READ_RATIO)} |`,
    );
  }
  const res = find(results, 'pg2', 'reservation');
  lines.push(
    `| reservation create ≥ ${GOAL_RESERVATIONS_PER_SECOND}/s, p99 < ${GOAL_RESERVATION_P99_PG_MS} ms (PostgreSQL, 2 processes) | ${res ? `${fmt(res.rps)}/s, p99 ${ms(res.p99)} ms: ${verdict(res.rps >= GOAL_RESERVATIONS_PER_SECOND && res.p99 < GOAL_RESERVATION_P99_PG_MS)}` : 'not measured'} |`,
  );
  for (const variant of ['embedded', 'pg1', 'pg2']) {
    const plain = find(results, variant, 'reservation');
    const hooked = find(results, variant, 'reservation-webhook');
    if (!plain || !hooked) continue;
    const share = hooked.rps / plain.rps;
    lines.push(
      `| reservation create with one webhook endpoint subscribed ≥ ${GOAL_WEBHOOK_SHARE} × without (${variant}) | ${fmt(hooked.rps)} ÷ ${fmt(plain.rps)} req/s = ${fmt(share, 2)}: ${verdict(share >= GOAL_WEBHOOK_SHARE)} |`,
    );
  }
  for (const variant of ['embedded', 'pg1', 'pg2']) {
    const r = results.throughput.find((x) => x.variant === variant && x.scenario === 'reservation');
    if (!r?.target || !r.floor) continue;
    const share = r.target.rps / r.floor.rps;
    const tail = r.target.p99 / r.target.p50;
    lines.push(
      `| reservation create ≥ ${GOAL_FLOOR_SHARE} × the commit floor, p99 ≤ ${GOAL_FLOOR_TAIL} × p50 (${variant}) | ${fmt(r.target.rps)} ÷ ${fmt(r.floor.rps)} = ${fmt(share, 2)}, p99 ÷ p50 = ${fmt(tail, 1)}: ${verdict(share >= GOAL_FLOOR_SHARE && tail <= GOAL_FLOOR_TAIL)} |`,
    );
  }
  for (const f of results.features ?? []) {
    const share = f.featured.rps / f.plain.rps;
    lines.push(
      `| ${f.scenario === 'search' ? 'search' : 'reservation create'} with every feature in use ≥ ${GOAL_FEATURES_SHARE} × without (${f.variant}) | ${fmt(f.featured.rps)} ÷ ${fmt(f.plain.rps)} req/s = ${fmt(share, 2)}: ${verdict(share >= GOAL_FEATURES_SHARE)} |`,
    );
  }
  const embeddedRes = find(results, 'embedded', 'reservation');
  lines.push(
    `| reservation create p99 < ${GOAL_RESERVATION_P99_EMBEDDED_MS} ms (embedded, ${results.settings.connections} connections) | ${embeddedRes ? `${fmt(embeddedRes.rps)}/s, p99 ${ms(embeddedRes.p99)} ms: ${verdict(embeddedRes.p99 < GOAL_RESERVATION_P99_EMBEDDED_MS)}` : 'not measured'} |`,
  );
  const middle = (types: number) =>
    results.growth
      .filter((g) => g.roomTypes === types)
      .sort((a, b) => a.reservations - b.reservations)
      .find((g) => results.growth.some((x) => x.roomTypes !== types && x.reservations === g.reservations));
  const many = results.growth.filter((g) => g.roomTypes === 50).at(0);
  const four = many
    ? results.growth.find((g) => g.roomTypes === 4 && g.reservations === many.reservations)
    : middle(4);
  lines.push(
    `| search with 50 room types ≥ ${GOAL_MANY_TYPES_SHARE} × the 4-room-type figure (embedded, same stored reservations) | ${many && four ? `${fmt(many.search.rps)} ÷ ${fmt(four.search.rps)} req/s = ${fmt(many.search.rps / four.search.rps, 2)}: ${verdict(many.search.rps / four.search.rps >= GOAL_MANY_TYPES_SHARE)}` : 'not measured'} |`,
  );
  const sized = results.growth
    .filter((g) => g.roomTypes === 4)
    .sort((a, b) => a.reservations - b.reservations);
  const small = sized[0];
  const large = sized.at(-1);
  if (small && large && large !== small) {
    const f50 = large.search.p50 / small.search.p50;
    const f99 = large.search.p99 / small.search.p99;
    lines.push(
      `| search latency within ${GOAL_GROWTH_FACTOR}× from ${small.reservations.toLocaleString('en')} to ${large.reservations.toLocaleString('en')} reservations | p50 ×${fmt(f50, 2)}, p99 ×${fmt(f99, 2)}: ${verdict(f50 <= GOAL_GROWTH_FACTOR && f99 <= GOAL_GROWTH_FACTOR)} |`,
    );
  } else lines.push(`| search latency within ${GOAL_GROWTH_FACTOR}× as reservations grow | not measured |`);
  const soak = results.soak;
  if (soak) {
    const growth = (soak.rssEnd - soak.rssStart) / soak.rssStart;
    const tenMinutes = soak.seconds >= 600;
    lines.push(
      `| no memory growth over 10 minutes | ${fmt(soak.seconds)} s run: RSS ${mib(soak.rssStart)} → ${mib(soak.rssEnd)} (${growth >= 0 ? '+' : ''}${fmt(growth * 100, 1)} %), heap ${mib(soak.heapStart)} → ${mib(soak.heapEnd)}: ${tenMinutes ? verdict(growth < GOAL_RSS_GROWTH) : `${growth < GOAL_RSS_GROWTH ? 'no growth seen' : 'growth seen'} in a shorter run; the 10-minute check is \`BENCH_SOAK_SECONDS=600\``} |`,
    );
  } else lines.push('| no memory growth over 10 minutes | not measured |');
  return lines;
}

function beforeAfter(before: Results, after: Results): string[] {
  const lines = [
    '| variant | scenario | before req/s | after req/s | before p50 / p99 ms | after p50 / p99 ms |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const a of after.throughput) {
    const b = before.throughput.find((x) => x.variant === a.variant && x.scenario === a.scenario);
    if (!a.target || !b?.target) continue;
    lines.push(
      `| ${a.variant} | ${a.scenario} | ${fmt(b.target.rps)} | ${fmt(a.target.rps)} | ${ms(b.target.p50)} / ${ms(b.target.p99)} | ${ms(a.target.p50)} / ${ms(a.target.p99)} |`,
    );
  }
  for (const a of after.growth) {
    const b = before.growth.find((x) => x.reservations === a.reservations && x.roomTypes === a.roomTypes);
    if (!b) continue;
    lines.push(
      `| growth ${a.reservations.toLocaleString('en')} res., ${a.roomTypes} types | search | ${fmt(b.search.rps)} | ${fmt(a.search.rps)} | ${ms(b.search.p50)} / ${ms(b.search.p99)} | ${ms(a.search.p50)} / ${ms(a.search.p99)} |`,
    );
  }
  return lines;
}

/** BENCHMARKS.md: the command, the machine, the figures next to the baseline, the goals. */
export function renderReport(results: Results, before: Results | null, notes: string): string {
  const m = results.machine;
  const s = results.settings;
  const out: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (bench/run.ts); the prose under "Notes" comes from bench/NOTES.md. -->',
    '',
    `Command: \`npm run bench\` — run ${results.startedAt.slice(0, 16).replace('T', ' ')} UTC to ${results.finishedAt?.slice(11, 16) ?? '?'} UTC.`,
    '',
    `Machine: ${m.nproc} cores (\`nproc\`), ${m.cpu}, ${m.memoryGiB} GiB memory, Node ${m.node}, ${m.os}; ${m.postgres}. The load generator (autocannon, in the bench process), the service processes and PostgreSQL share these ${m.nproc} cores.${m.loadAverageMean !== undefined ? ` 1-minute load average during the run: mean ${m.loadAverageMean}, max ${m.loadAverageMax} (anything above ${m.nproc} means other work competed for the cores).` : ''}`,
    '',
    `Settings: ${s.connections} connections, ${s.rounds} alternating rounds of ${s.duration} s (after ${s.warmup} s warm-up), ${s.reservationsPerRound} reservations per round, service started with \`LOG_LEVEL=${process.env.BENCH_LOG_LEVEL ?? 'warn'}\` and \`RATE_LIMIT_PER_MINUTE=0\`. Latencies are milliseconds.`,
    '',
    '## Throughput and latency next to the baseline',
    '',
    'Baseline: a bare Fastify server answering a JSON POST (bench/baseline-server.ts), the same number of processes, measured alternately with the service in the same run. Ratio = service req/s ÷ baseline req/s.',
    '',
    '| variant | scenario | req/s | p50 | p99 | baseline req/s | baseline p50 / p99 | ratio | service CPU ms/request | non-2xx + errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.throughput.map(row),
    '',
    'Variants: `embedded` = PGlite, 1 process; `pg1` / `pg2` = PostgreSQL with 1 / 2 service processes (connections split between them, p99 the worse of the two). Scenarios: `search` = POST /booking/availability/search (4 room types, 2 rate plans; a different stay on every request — arrival, nights, adults, children, rooms and services all vary, see `searchStay` in bench/catalog.ts — so no response cache could stand in for the search); `quote` = POST /booking/quote (writes a quote); `reservation` = POST /booking/reservations on quotes made beforehand (not measured), each run sending exactly that many; `reservation-webhook` = the same with one webhook endpoint subscribed to `reservation.*` (a local receiver answering 204), so the outbox and delivery cost shows beside `reservation` in the same run; `checkin-read` = GET /checkin/sessions/{id} over 100 sessions, nothing written meanwhile (the JWS is signed once per session version and reused; on the embedded engine an unchanged session is answered from memory, and any write to sessions, steps or reservations sends the next read back to the database; on PostgreSQL a session the process holds costs one narrow statement, the version of its rows).',
    ...(results.skipped.length ? ['', `Skipped: ${results.skipped.join('; ')}.`] : []),
    '',
    '## Bookings next to the commit floor',
    '',
    'The floor of any booking is one durable commit: bench/commit-floor-server.ts, a bare Fastify server committing one `INSERT … RETURNING id` per request (PostgreSQL: to the same server as the service, through a `pg` pool of the same size; embedded: a bare PGlite on disk), the same number of processes, connections and requests, measured alternately with the bookings in the same run.',
    '',
    ...(floorRows(results).length > 0
      ? [...FLOOR_HEADER, ...floorRows(results)]
      : ['Not measured in this run.']),
    '',
    '## Every feature in use',
    '',
    'bench/features.ts: plain and featured services side by side, two of each by default (`BENCH_FEATURE_PAIRS`: one process of a build may run 20 % faster than another of the same build), alternated round by round, each figure the mean over all their rounds. *Featured*: guest messages sent to an SMTP server (a sink in the bench process), one webhook endpoint subscribed to `reservation.*` (a local receiver answering 204), 10 iCal imports of 100 events each (polled as configured), and the `flex` plan replaced by an AlpineBits RatePlans message (per-room rates by adults, children by age band, 500 nights). *Plain*: none of these (messages queued, never sent). Bookings: at most 600 a round, each guest with an address of their own.',
    ...(results.featuresRun
      ? [
          '',
          `This section is a later run of its own, ${results.featuresRun.startedAt.slice(11, 16)} to ${results.featuresRun.finishedAt.slice(11, 16)} UTC (\`npm run bench -- features\`), on the same machine.`,
        ]
      : []),
    '',
    ...(results.features?.length
      ? [
          '| variant | scenario | plain req/s | plain p50 / p99 | featured req/s | featured p50 / p99 | featured ÷ plain | non-2xx + errors | |',
          '|---|---|---:|---:|---:|---:|---:|---:|---|',
          ...results.features.map(
            (f) =>
              `| ${f.variant} | ${f.scenario} | ${fmt(f.plain.rps)} | ${ms(f.plain.p50)} / ${ms(f.plain.p99)} | ${fmt(f.featured.rps)} | ${ms(f.featured.p50)} / ${ms(f.featured.p99)} | **${fmt(f.featured.rps / f.plain.rps, 2)}** | ${f.plain.non2xx + f.plain.errors + f.featured.non2xx + f.featured.errors} | ${f.note} |`,
          ),
        ]
      : ['Not measured in this run.']),
    '',
    '## Search as the data grows (embedded engine)',
    '',
    'Reservations are seeded with `generate_series` (spread over 2,000 nights and the room types, with the inventory rows they imply), then search is measured as above. At the middle size, the services of each count of room types run side by side and their rounds alternate (4, 1, 50, then again), so the 50-against-4 goal compares figures of the same moments. Search reads only `inventory` (one row per room type and night sold), never `reservations`.',
    '',
    '| stored reservations | room types | inventory rows | seed time s | req/s | p50 | p99 | service CPU ms/request |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.growth.map(
      (g) =>
        `| ${g.reservations.toLocaleString('en')} | ${g.roomTypes} | ${g.inventoryRows.toLocaleString('en')} | ${fmt(g.seedSeconds, 1)} | ${fmt(g.search.rps)} | ${ms(g.search.p50)} | ${ms(g.search.p99)} | ${g.search.cpuMsPerRequest === undefined ? '' : fmt(g.search.cpuMsPerRequest, 3)} |`,
    ),
    '',
    '## Memory over a sustained run',
    '',
    results.soak
      ? `${results.soak.seconds} s of search at ${s.connections} connections on the embedded engine (${fmt(results.soak.search.rps)} req/s, p99 ${ms(results.soak.search.p99)} ms). RSS after warm-up ${mib(results.soak.rssStart)}, at the end ${mib(results.soak.rssEnd)}, peak ${mib(results.soak.rssPeak)}; V8 heap used ${mib(results.soak.heapStart)} → ${mib(results.soak.heapEnd)}. RSS samples (s: MiB): ${results.soak.samples.map((x) => `${x.t}: ${fmt(x.rss / 2 ** 20)}`).join(', ')}. The 10-minute check: \`BENCH_SOAK_SECONDS=600 BENCH_SECTIONS=soak npm run bench\`.`
      : 'Not measured in this run.',
    '',
    '## The in-memory view of the nights',
    '',
    results.view
      ? `Search answers from each process's copy of the hotels' nights (src/hotel-calendar/night-store.ts). For ${results.view.hotels} hotels × ${results.view.roomTypes} room types × ${results.view.nights} nights, with every night's price and restrictions of every room type and rate plan worked out (the worst case): the dense arrays (rooms, inventory total, sold, left and row version per room type and night) take ${mib(results.view.arrayBytes)}, the whole view ${mib(results.view.heapBytes)} (V8 heap and array buffers grown); loading and working it all out took ${fmt(results.view.loadSeconds, 1)} s (\`node --expose-gc --import tsx bench/view-memory.ts\`).`
      : 'Not measured in this run.',
    '',
    '## Goals',
    '',
    '| goal | this run |',
    '|---|---|',
    ...goals(results),
    '',
  ];
  if (before) {
    out.push(
      '## Before and after (issue 14: search from memory, fewer round trips)',
      '',
      `Before: ${before.startedAt.slice(0, 16).replace('T', ' ')} UTC (bench/results/before.json), same settings unless stated in the notes; divide by each run's baseline before comparing (the machine is shared).`,
      '',
      ...beforeAfter(before, results),
      '',
    );
  }
  out.push(
    '## Running it',
    '',
    '`npm run bench` runs everything below. Words narrow it: `npm run bench -- booking` (the reservation scenario and its commit floor, every engine), `npm run bench -- search embedded`, `npm run bench -- booking-webhook pg1`, `npm run bench -- growth`; a scenario or engine without a section runs the throughput section only, and a partial run writes bench/results/<words>.md and .json and prints its tables instead of replacing BENCHMARKS.md. Words: `search`, `calendar`, `quote`, `booking` (= `reservation`), `booking-webhook`, `checkin`; `embedded`, `pg1` (= `pg`), `pg2`; `throughput`, `growth`, `soak`, `view`, `features`.',
    '',
    '| variable | default | meaning |',
    '|---|---|---|',
    '| `BENCH_DURATION_SECONDS` | 5 | length of one measured run |',
    '| `BENCH_WARMUP_SECONDS` | 2 | warm-up before each scenario (0 = none) |',
    '| `BENCH_ROUNDS` | 2 | alternating baseline/service rounds per scenario |',
    '| `BENCH_CONNECTIONS` | 50 | concurrent connections |',
    '| `BENCH_RESERVATIONS_PER_ROUND` | 1500 | reservations booked per reservation round |',
    '| `BENCH_VARIANTS` | embedded,pg1,pg2 | PostgreSQL variants are skipped when no server answers at `PG_ADMIN_URL` (default postgres://postgres@127.0.0.1:5432/postgres) |',
    '| `BENCH_SCENARIOS` | search,calendar,quote,reservation,reservation-webhook,checkin-read | `calendar`: the price calendar of 60 nights (API.md 9.1) |',
    "| `BENCH_SECTIONS` | throughput,growth,soak,view,features | `view`: the in-memory view's size for 50 hotels × 50 room types × 500 nights; `features`: search and booking with every feature in use next to none (embedded and pg1) |",
    '| `BENCH_GROWTH_SIZES` | 1000,100000,1000000 | stored reservations for the growth runs |',
    '| `BENCH_GROWTH_TYPES` | 1,50 | room types compared at the middle size (50 against the 4 of the size runs for the goal) |',
    '| `BENCH_SOAK_SECONDS` | 45 | sustained run for the memory check; `600` for the 10-minute check |',
    "| `BENCH_LOG_LEVEL` | warn | the service's LOG_LEVEL (info logs two lines per request) |",
    '| `BENCH_LABEL` | latest | results go to bench/results/<label>.json; `before.json` is compared against |',
    '| `BENCH_CPU_PROF_DIR` | unset | run the services (throughput, growth and the featured service of features) with `node --cpu-prof` into this directory; summarise with `node --import tsx bench/profile-summary.ts <dir> <marker>` |',
    '| `BENCH_START_SECONDS` | 300 | how long a process may take to answer before the run gives up on it (and kills it) |',
    "| `BENCH_PORTS` | unset | take the services' and baselines' ports from this range (e.g. `42000-42999`) |",
    '| `PG_DATABASE_PREFIX` | innkeep_ | prefix of the PostgreSQL databases the run makes (`<prefix>bench_…`) |',
    '| `BENCH_OUT` | BENCHMARKS.md | where this report is written (a partial run, `npm run bench -- booking pg1`: bench/results/<words>.md) |',
    '| `BENCH_MAIL` | unset | guest messages: `smtp` = sent to an SMTP sink the bench runs (every process sends), `off` = `MAIL_WORKER=false` (queued only); unset = the service’s default (`.eml` files on the embedded engine, queued on PostgreSQL) |',
    '',
  );
  if (notes.trim()) out.push('## Notes', '', notes.trim(), '');
  return out.join('\n');
}
