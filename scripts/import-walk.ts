/**
 * How a reader follows a use case through the code (docs/architecture.md, "One shape per feature"):
 * a depth-first walk of the imports of one file of `src/`, each file read once, in the order its
 * imports are written, leaving out the layers every feature uses (`infra/`, `dates/`, `config`).
 * It counts the files read and the climbs back up: each time the next file read lies in a higher
 * layer than the one just read (the walk went down into a lower feature and the reader returns).
 *
 *   node --import tsx scripts/import-walk.ts src/booking/commands/create-reservation.ts [src-dir]
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { layerOfFile, moduleOfFile, SHARED_MODULES } from './layers.ts';

const start = resolve(process.argv[2] ?? 'src/booking/commands/create-reservation.ts');
const src = resolve(process.argv[3] ?? 'src');
const SKIPPED = SHARED_MODULES;

const moduleOf = (file: string) => moduleOfFile(src, file);
const layerOf = (file: string) => layerOfFile(src, file);

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) {
    const target = resolve(dirname(file), m[1] as string);
    if (!SKIPPED.has(moduleOf(target))) found.push(target);
  }
  return found;
}

const order: string[] = [];
const seen = new Set<string>();
(function walk(file: string) {
  if (seen.has(file)) return;
  seen.add(file);
  order.push(file);
  for (const next of importsOf(file)) walk(next);
})(start);

let climbs = 0;
for (let i = 1; i < order.length; i++)
  if (layerOf(order[i] as string) > layerOf(order[i - 1] as string)) climbs++;
if (process.env.WALK_LIST) for (const f of order) console.log(layerOf(f), relative(src, f));
const folders = new Set(order.map((f) => dirname(relative(src, f))));
console.log(`${order.length} files in ${folders.size} folders, ${climbs} climbs back up`);
