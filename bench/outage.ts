/**
 * Issue 23.2 and 23.3, as the issue played it: one service process on a fresh PostgreSQL database
 * under a steady load of quotes, each with an Idempotency-Key of its own; the database stops
 * accepting connections (`ALTER DATABASE … ALLOW_CONNECTIONS false`, the service's connections
 * terminated) for OUTAGE_SECONDS, then allows them again. Prints the answers by status and code
 * during the outage, then retries every key that failed and prints what the retries got (a `409
 * idempotency_in_progress` there is a key left held). Not a test: the figures depend on the machine.
 *
 *   node --import tsx bench/outage.ts [outage seconds=5] [concurrency=20]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { stays, writeCatalog } from './catalog.ts';
import { ADMIN_URL, createDatabase, newKey, startService } from './processes.ts';

const OUTAGE_SECONDS = Number(process.argv[2] ?? 5);
const CONCURRENCY = Number(process.argv[3] ?? 20);

async function quote(url: string, body: string, key: string) {
  try {
    const res = await fetch(`${url}/api/v1/booking/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body,
    });
    const json = (await res.json()) as { code?: string };
    return { status: res.status, code: json.code ?? '', retryAfter: res.headers.get('retry-after') };
  } catch {
    return { status: 0, code: 'network', retryAfter: null };
  }
}

const tally = (list: Array<{ status: number; code: string }>) => {
  const out: Record<string, number> = {};
  for (const r of list) out[`${r.status} ${r.code}`.trim()] = (out[`${r.status} ${r.code}`.trim()] ?? 0) + 1;
  return out;
};

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'innkeep-outage-'));
  const db = await createDatabase();
  const name = new URL(db.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const proc = await startService({
    catalogFile: await writeCatalog(dir, 4),
    dataDir: join(dir, 'data'),
    databaseUrl: db.url,
    key: newKey(),
  });
  try {
    const bodies = stays(997, 4).map((s) => JSON.stringify(s));
    let n = 0;
    type Phase = 'before' | 'outage' | 'after';
    let phase = 'before' as Phase;
    const answers: Record<
      typeof phase,
      Array<{ status: number; code: string; key: string; body: string; retryAfter: string | null }>
    > = { before: [], outage: [], after: [] };
    let running = true;
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (running) {
        const i = n++;
        const key = `outage-${process.pid}-${i}`;
        const body = bodies[i % bodies.length] as string;
        const at = phase;
        const r = await quote(proc.url, body, key);
        answers[at].push({ ...r, key, body });
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    phase = 'outage';
    const started = performance.now();
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_SECONDS * 1000));
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    const outageMs = Math.round(performance.now() - started);
    phase = 'after';
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    running = false;
    await Promise.all(workers);

    const failed = [...answers.outage, ...answers.after].filter((r) => r.status >= 500);
    const retries = await Promise.all(failed.map((r) => quote(proc.url, r.body, r.key)));
    const retryAfter: Record<string, number> = {};
    for (const r of answers.outage)
      if (r.retryAfter) retryAfter[r.retryAfter] = (retryAfter[r.retryAfter] ?? 0) + 1;
    console.log(
      JSON.stringify(
        {
          outageMs,
          concurrency: CONCURRENCY,
          before: tally(answers.before),
          duringOutage: tally(answers.outage),
          retryAfterDuringOutage: retryAfter,
          afterOutage: tally(answers.after),
          keysThatFailed: failed.length,
          retriesOfThoseKeys: tally(retries),
        },
        null,
        2,
      ),
    );
  } finally {
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {});
    await admin.end();
    await proc.stop();
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
