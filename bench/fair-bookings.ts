/**
 * Issue 23.6: 50 clients booking at once on the embedded engine, each on a connection of its own
 * opened as the burst starts (as autocannon's are), two rounds of N reservations on quotes made
 * beforehand. Prints throughput and p50 / p90 / p99 / max per round, and the requests slower than
 * 4 x p50 with when they started (+ how long they took): before the fix, the first requests of
 * connections accepted late waited for the end of the burst. Not a test: the figures depend on the
 * machine.
 *
 *   node --import tsx bench/fair-bookings.ts [reservations per round=600]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stays, writeCatalog } from './catalog.ts';
import { newKey, startService } from './processes.ts';

const N = Number(process.argv[2] ?? 600);
const C = 50;
const dir = await mkdtemp(join(tmpdir(), 'starve-'));
const proc = await startService({
  catalogFile: await writeCatalog(dir, 4),
  dataDir: join(dir, 'data'),
  key: newKey(),
});
const post = async (path: string, body: unknown) => {
  const res = await fetch(`${proc.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { id?: string } };
};
try {
  const bodies = stays(997, 4);
  for (let round = 0; round < 2; round++) {
    const ids: string[] = [];
    for (let i = 0; i < N; i += 20) {
      const rs = await Promise.all(
        bodies.slice(i % 900, (i % 900) + 20).map((b) => post('/api/v1/booking/quote', b)),
      );
      for (const r of rs) if (r.body.id) ids.push(r.body.id);
    }
    let next = 0;
    const rows: Array<{ k: number; start: number; ms: number; status: number; client: number }> = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: C }, async (_, client) => {
        while (next < ids.length) {
          const k = next++;
          const start = performance.now();
          const r = await post('/api/v1/booking/reservations', {
            quoteId: ids[k],
            guest: { firstName: 'Ana', lastName: 'Silva', email: 'a@example.com' },
          });
          rows.push({ k, start: start - t0, ms: performance.now() - start, status: r.status, client });
        }
      }),
    );
    const wall = performance.now() - t0;
    const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
    const p = (q: number) => Math.round(ms[Math.floor(q * (ms.length - 1))] ?? 0);
    const statuses: Record<number, number> = {};
    for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    console.log(
      `round ${round}: ${rows.length} in ${Math.round(wall)} ms = ${Math.round((rows.length / wall) * 1000)}/s p50 ${p(0.5)} p90 ${p(0.9)} p99 ${p(0.99)} max ${p(1)}`,
      statuses,
    );
    const slow = rows.filter((r) => r.ms > p(0.5) * 4).sort((a, b) => a.start - b.start);
    console.log(
      'slow:',
      slow
        .slice(0, 30)
        .map((r) => `${Math.round(r.start)}+${Math.round(r.ms)}(${r.status})`)
        .join(' '),
    );
  }
} finally {
  await proc.stop();
  await rm(dir, { recursive: true, force: true });
}
