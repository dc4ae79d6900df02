/**
 * Summarises `.cpuprofile` files written with BENCH_CPU_PROF_DIR (node --cpu-prof):
 *   node --import tsx bench/profile-summary.ts <dir> [marker[,marker…]] [--exclude fn[,fn…]] [--slice-ms 250]
 *
 * The profile is cut into slices (250 ms); only slices with a sample under a marker function
 * count (default searchAvailability), and none with a sample under an `--exclude` function. So
 * start-up, the baseline's rounds (the service idles while the bench measures the baseline) and
 * work the bench does between measured runs (e.g. quotes made ahead for the reservation scenario:
 * `--exclude createQuote`) do not count, and "idle" is idleness while under load.
 *
 * Markers per path: check-in read `getSession`; reservation create `createReservation` with
 * `--exclude createQuote`; search (any number of room types) `searchAvailability`.
 *
 * Prints self and inclusive shares, and inclusive shares per library / source folder (a sample
 * counts once for each that is on its stack).
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const excluded = new Set((option('--exclude') ?? '').split(',').filter(Boolean));
const sliceUs = Number(option('--slice-ms') ?? 250) * 1000;
const [dir, markerArg] = args;
const markerNames = new Set((markerArg ?? 'searchAvailability').split(',').filter(Boolean));
if (!dir) {
  console.error('usage: profile-summary.ts <dir> [marker,…] [--exclude fn,…] [--slice-ms n]');
  process.exit(2);
}

/** The library (node_modules package) or source folder (src/<area>) a frame belongs to. */
function groupOf(n: ProfileNode): string {
  const { url, functionName } = n.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  const own = /\/(src|bench)\/([^/]+)/.exec(url);
  if (own) return own[2]?.includes('.') ? `${own[1]}/${own[2]}` : `${own[1]}/${own[2]}/`;
  if (url.startsWith('node:')) return 'node:*';
  if (url.startsWith('wasm://')) return '(wasm)';
  return url;
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackHas = (id: number, names: Set<string>) => {
    for (let c: number | undefined = id; c !== undefined; c = parent.get(c))
      if (names.has((byId.get(c) as ProfileNode).callFrame.functionName)) return true;
    return false;
  };
  // Sample times, then the slices that count.
  const times: number[] = [];
  let t = profile.startTime;
  for (const dt of profile.timeDeltas) {
    t += dt;
    times.push(t);
  }
  const slice = (i: number) => Math.floor(((times[i] as number) - profile.startTime) / sliceUs);
  const marked = new Set<number>();
  const dropped = new Set<number>();
  for (const [i, id] of profile.samples.entries()) {
    if (stackHas(id, markerNames)) marked.add(slice(i));
    if (excluded.size > 0 && stackHas(id, excluded)) dropped.add(slice(i));
  }
  const counts = (i: number) => marked.has(slice(i)) && !dropped.has(slice(i));
  if (marked.size === 0) {
    console.log(`${file}: no sample under ${[...markerNames].join(',')}`);
    continue;
  }
  const name = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${(n.callFrame.url || '(native)').replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/')}:${n.callFrame.lineNumber}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const groups = new Map<string, number>();
  let total = 0;
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (let i = 0; i < profile.samples.length; i++) {
    if (!counts(i)) continue;
    const id = profile.samples[i] as number;
    const dt = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
    total += dt;
    const own = byId.get(id) as ProfileNode;
    add(self, name(own), dt);
    const seen = new Set<string>();
    const seenGroups = new Set<string>();
    for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) {
      const node = byId.get(c) as ProfileNode;
      const key = name(node);
      if (!seen.has(key)) {
        seen.add(key);
        add(inclusive, key, dt);
      }
      const group = groupOf(node);
      if (group !== '(root)' && !seenGroups.has(group)) {
        seenGroups.add(group);
        add(groups, group, dt);
      }
    }
  }
  const top = (m: Map<string, number>, n: number, filter = (_k: string) => true) =>
    [...m]
      .filter(([k]) => filter(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  const kept = new Set([...marked].filter((s) => !dropped.has(s))).size;
  console.log(
    `== ${file}: ${(total / 1e6).toFixed(1)} s of CPU profile in ${kept} slices of ${sliceUs / 1000} ms under ${[...markerNames].join(',')}${excluded.size ? ` (without ${[...excluded].join(',')})` : ''}`,
  );
  console.log(`-- inclusive per library / source folder\n${top(groups, 25)}`);
  console.log(`-- self time\n${top(self, 25)}`);
  console.log(
    `-- inclusive (service code and libraries)\n${top(inclusive, 45, (k) => !k.startsWith('(') && !k.startsWith('wasm-function') && !k.includes('node:internal/process'))}`,
  );
}
