/**
 * `node --import tsx bench/channels.ts`: search and booking speed with and without 10 iCal
 * imports of 100 events each (API.md 11.1), on one service process (embedded engine), measured
 * alternately in the same process: no imports, imports, imports deleted, imports again. The
 * events hold rooms in the same inventory rows bookings take, so this shows what holds cost the
 * hot paths. Writes bench/results/channels.json and prints a table. The machine is shared and
 * noisy: compare the rounds of one run, not runs of different days.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { HOTEL_ID, searchStay, stays, writeCatalog } from './catalog.ts';
import { FEED_EVENTS as EVENTS, feedServer } from './ical-feeds.ts';
import { type LoadResult, load } from './load.ts';
import { newKey, ROOT, startService } from './processes.ts';

const TYPES = 10;
const IMPORTS = 10;
const SEARCH_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 5);
const BOOKINGS = Number(process.env.BENCH_RESERVATIONS_PER_ROUND ?? 600);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function json(url: string, method: string, body: unknown, key: string) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function main() {
  const feeds = await feedServer();
  const feedBase = feeds.base;

  const dir = await mkdtemp(join(os.tmpdir(), 'innkeep-bench-channels-'));
  const service = await startService({
    catalogFile: await writeCatalog(dir, TYPES),
    dataDir: join(dir, 'data'),
    key: newKey(),
    extraEnv: { WEBHOOK_ALLOW_PRIVATE: 'true', ICAL_POLL_SECONDS: '3600', LOAD_SHED_MAX_WAIT_MS: '0' },
  });
  const key = (await readFile(join(dir, 'data', 'operator-key'), 'utf8')).trim();
  const operator = `${service.url}/api/v1/operator`;
  let imports: string[] = [];
  const addImports = async () => {
    imports = [];
    for (let k = 0; k < IMPORTS; k++) {
      const r = await json(
        `${operator}/hotels/${HOTEL_ID}/ical-imports`,
        'POST',
        {
          roomTypeId: `rt${k % TYPES}`,
          url: `${feedBase}/feed-${k}.ics`,
          name: `platform ${k}`,
        },
        key,
      );
      if (r.status !== 201 || r.body.lastFetch?.status !== 'ok')
        throw new Error(`import: ${JSON.stringify(r.body)}`);
      imports.push(r.body.id);
    }
  };
  const removeImports = async () => {
    for (const id of imports) await json(`${operator}/ical-imports/${id}`, 'DELETE', undefined, key);
    imports = [];
  };
  const search = () =>
    load([service.url], {
      method: 'POST',
      path: () => '/api/v1/booking/availability/search',
      body: (i) => JSON.stringify(searchStay(i)),
      connections: CONNECTIONS,
      duration: SEARCH_SECONDS,
    });
  const book = async () => {
    const ids: string[] = [];
    const bodies = stays(997, TYPES).map((s) => JSON.stringify(s));
    await load([service.url], {
      method: 'POST',
      path: () => '/api/v1/booking/quote',
      body: (i) => bodies[i % bodies.length] as string,
      connections: 20,
      amount: BOOKINGS,
      onBody: (status, body) => {
        if (status === 201) ids.push((JSON.parse(body) as { id: string }).id);
      },
    });
    let next = 0;
    return load([service.url], {
      method: 'POST',
      path: () => '/api/v1/booking/reservations',
      body: () =>
        JSON.stringify({
          quoteId: ids[next++ % ids.length],
          guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' },
        }),
      connections: CONNECTIONS,
      amount: ids.length,
    });
  };

  const rounds: Array<{ imports: number; search: LoadResult; booking: LoadResult; syncMs?: number }> = [];
  try {
    await search(); // warm-up
    for (const withImports of [false, true, false, true]) {
      let syncMs: number | undefined;
      if (withImports) {
        const started = performance.now();
        await addImports();
        syncMs = Math.round(performance.now() - started);
      } else {
        await removeImports();
      }
      rounds.push({
        imports: imports.length,
        search: await search(),
        booking: await book(),
        ...(syncMs ? { syncMs } : {}),
      });
    }
  } finally {
    await service.stop();
    feeds.close();
    await rm(dir, { recursive: true, force: true });
  }
  const row = (r: (typeof rounds)[number]) =>
    `| ${r.imports} × ${EVENTS} | ${Math.round(r.search.rps)} | ${r.search.p50.toFixed(1)} | ${r.search.p99} | ${Math.round(r.booking.rps)} | ${r.booking.p50.toFixed(1)} | ${r.booking.p99} | ${r.search.non2xx + r.booking.non2xx} | ${r.syncMs ?? ''} |`;
  const table = [
    '| imports × events | search req/s | p50 ms | p99 ms | bookings/s | p50 ms | p99 ms | non-2xx | 10 imports created and fetched, ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rounds.map(row),
  ].join('\n');
  console.log(table);
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(
    join(ROOT, 'bench', 'results', 'channels.json'),
    `${JSON.stringify({ startedAt: new Date().toISOString(), cpus: os.cpus().length, loadavg: os.loadavg(), rounds }, null, 2)}\n`,
  );
}

await main();
