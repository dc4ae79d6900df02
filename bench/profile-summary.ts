/**
 * Summarises `.cpuprofile` files written with BENCH_CPU_PROF_DIR (node --cpu-prof):
 *   node --import tsx bench/profile-summary.ts <dir> [marker]
 * Only samples from the first to the last one under `marker` (default searchAvailability) count,
 * so start-up and idle stretches do not drown the request path. Prints self and inclusive shares.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const dir = process.argv[2];
const marker = process.argv[3] ?? 'searchAvailability';
if (!dir) {
  console.error('usage: profile-summary.ts <dir> [marker function]');
  process.exit(2);
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const markers = new Set(profile.nodes.filter((n) => n.callFrame.functionName === marker).map((n) => n.id));
  const underMarker = (id: number) => {
    for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) if (markers.has(c)) return true;
    return false;
  };
  const first = profile.samples.findIndex(underMarker);
  const last = profile.samples.findLastIndex(underMarker);
  if (first < 0) {
    console.log(`${file}: no sample under ${marker}`);
    continue;
  }
  const name = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${(n.callFrame.url || '(native)').replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/')}:${n.callFrame.lineNumber}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (let i = first; i <= last; i++) {
    const id = profile.samples[i] as number;
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const own = byId.get(id) as ProfileNode;
    self.set(name(own), (self.get(name(own)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) {
      const key = name(byId.get(c) as ProfileNode);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  }
  const top = (m: Map<string, number>, n: number, filter = (_k: string) => true) =>
    [...m]
      .filter(([k]) => filter(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  console.log(`== ${file}: ${(total / 1e6).toFixed(1)} s under load`);
  console.log(`-- self time\n${top(self, 25)}`);
  console.log(
    `-- inclusive (service code and libraries)\n${top(inclusive, 40, (k) => !k.startsWith('(') && !k.includes('node:'))}`,
  );
}
