/**
 * A flash-sale burst (issue 8, item 8): 2 service processes on a fresh PostgreSQL database, default
 * load-shedding settings, then N quotes fired at once (half to each process). Prints how many got
 * each status, and the latency of the slowest. Not a test: the figures depend on the machine.
 *
 *   node --import tsx bench/burst.ts [requests=1000]
 *
 * Needs PostgreSQL at PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stays, writeCatalog } from './catalog.ts';
import { createDatabase, newKey, type Proc, startService } from './processes.ts';

const REQUESTS = Number(process.argv[2] ?? 1000);
const TYPES = 4;

async function quote(url: string, body: string): Promise<{ status: number; ms: number; detail?: string }> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/api/v1/booking/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await res.text();
    const detail = res.status >= 500 ? (JSON.parse(text) as { detail?: string }).detail : undefined;
    return { status: res.status, ms: performance.now() - started, detail };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'innkeep-burst-'));
  const db = await createDatabase();
  const procs: Proc[] = [];
  try {
    const catalogFile = await writeCatalog(dir, TYPES);
    const key = newKey();
    for (let i = 0; i < 2; i++) {
      // Defaults everywhere but the catalogue: the general rate limit as shipped, shedding as shipped.
      procs.push(
        await startService({
          catalogFile,
          dataDir: join(dir, `data${i}`),
          databaseUrl: db.url,
          key,
          extraEnv: { RATE_LIMIT_PER_MINUTE: '1200' },
        }),
      );
    }
    const urls = procs.map((p) => p.url);
    const bodies = stays(REQUESTS, TYPES).map((s) => JSON.stringify(s));
    // A few quotes first, so the burst meets warm processes (compiled code, open connections).
    for (let i = 0; i < 20; i++) await quote(urls[i % 2] as string, bodies[i] as string);

    const started = performance.now();
    const results = await Promise.all(bodies.map((body, i) => quote(urls[i % 2] as string, body)));
    const wallMs = performance.now() - started;

    const byStatus: Record<string, number> = {};
    const refusals: Record<string, number> = {};
    for (const r of results) {
      byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      if (r.detail) refusals[r.detail] = (refusals[r.detail] ?? 0) + 1;
    }
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
          processes: 2,
          byStatus,
          refusals,
          wallMs: Math.round(wallMs),
          servedLatencyMs: { p50: pct(0.5), p99: pct(0.99), max: pct(1) },
        },
        null,
        2,
      ),
    );
  } finally {
    for (const p of procs) await p.stop();
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
