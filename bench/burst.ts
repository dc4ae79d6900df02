/**
 * A flash-sale burst (issue 8, item 8): 2 service processes on a fresh PostgreSQL database, default
 * load-shedding settings, then N quotes fired at once (half to each process). Prints how many got
 * each status, and the latency of the slowest. Not a test: the figures depend on the machine.
 *
 *   node --import tsx bench/burst.ts [requests=1000]
 *   BURST_ENGINE=embedded node --import tsx bench/burst.ts [requests]   (one embedded process)
 *
 * Needs PostgreSQL at PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres). Prints
 * the Retry-After of the shed requests too, and each process's expected and actual waits from
 * /metrics (issue 23.5: the estimate is calibrated against what admitted requests took).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stays, writeCatalog } from './catalog.ts';
import { createDatabase, newKey, type Proc, startService } from './processes.ts';

const REQUESTS = Number(process.argv[2] ?? 1000);
const EMBEDDED = process.env.BURST_ENGINE === 'embedded';
const TYPES = 4;

async function quote(
  url: string,
  body: string,
): Promise<{ status: number; ms: number; detail?: string; retryAfter?: string }> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/api/v1/booking/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await res.text();
    const detail = res.status >= 500 ? (JSON.parse(text) as { detail?: string }).detail : undefined;
    const retryAfter = res.headers.get('retry-after') ?? undefined;
    return { status: res.status, ms: performance.now() - started, detail, retryAfter };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'innkeep-burst-'));
  const db = EMBEDDED ? null : await createDatabase();
  const procs: Proc[] = [];
  try {
    const catalogFile = await writeCatalog(dir, TYPES);
    const key = newKey();
    for (let i = 0; i < (EMBEDDED ? 1 : 2); i++) {
      // Defaults everywhere but the catalogue: the general rate limit as shipped, shedding as shipped.
      procs.push(
        await startService({
          catalogFile,
          dataDir: join(dir, `data${i}`),
          ...(db ? { databaseUrl: db.url } : {}),
          key,
          extraEnv: { RATE_LIMIT_PER_MINUTE: '1200' },
        }),
      );
    }
    const urls = procs.map((p) => p.url);
    const bodies = stays(REQUESTS, TYPES).map((s) => JSON.stringify(s));
    // A few quotes first, so the burst meets warm processes (compiled code, open connections).
    for (let i = 0; i < 20; i++) await quote(urls[i % urls.length] as string, bodies[i] as string);

    const started = performance.now();
    const results = await Promise.all(bodies.map((body, i) => quote(urls[i % urls.length] as string, body)));
    const wallMs = performance.now() - started;

    const byStatus: Record<string, number> = {};
    const refusals: Record<string, number> = {};
    const retryAfter: Record<string, number> = {};
    for (const r of results) {
      byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      if (r.detail) refusals[r.detail] = (refusals[r.detail] ?? 0) + 1;
      if (r.status === 503 && r.retryAfter) retryAfter[r.retryAfter] = (retryAfter[r.retryAfter] ?? 0) + 1;
    }
    // What each process expected and measured (load-shedding.ts), as /metrics reports it.
    const waits = await Promise.all(
      urls.map(async (url) => {
        const text = await (await fetch(`${url}/metrics`)).text();
        const pick = (series: string) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
        const mean = (name: string, labels = '') =>
          Math.round((pick(`${name}_sum${labels}`) / pick(`${name}_count${labels}`)) * 1000);
        return {
          expectedMeanMsAdmitted: mean('innkeep_db_wait_expected_seconds', '\\{outcome="admitted"\\}'),
          expectedMeanMsShed: mean('innkeep_db_wait_expected_seconds', '\\{outcome="shed"\\}'),
          actualMeanMs: mean('innkeep_db_wait_actual_seconds'),
          calibration: pick('innkeep_db_wait_calibration_ratio'),
        };
      }),
    );
    const served = results
      .filter((r) => r.status === 201)
      .map((r) => r.ms)
      .sort((a, b) => a - b);
    const pct = (p: number) =>
      Math.round(served[Math.min(served.length - 1, Math.floor(p * served.length))] ?? 0);
    console.log(
      JSON.stringify(
        {
          requests: REQUESTS,
          engine: EMBEDDED ? 'embedded' : 'postgres',
          processes: urls.length,
          byStatus,
          refusals,
          retryAfter,
          waits,
          wallMs: Math.round(wallMs),
          servedLatencyMs: { p50: pct(0.5), p99: pct(0.99), max: pct(1) },
        },
        null,
        2,
      ),
    );
  } finally {
    for (const p of procs) await p.stop();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
