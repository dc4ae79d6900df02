/**
 * The dependency rules of docs/architecture.md, checked on every `npm run lint`:
 *   node --import tsx scripts/check-architecture.ts
 * 1. No import cycle among the files of src/, type-only imports included.
 * 2. Imports run downwards: a file imports only its own layer (the same folder) or lower layers.
 * Exits 1 listing every violation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/**
 * Layers, lowest first. A module (a top-level file or folder of src/) may import from its own
 * module and from modules of a LOWER layer only: siblings of one layer stay independent.
 */
const LAYERS: string[][] = [
  ['config'],
  ['calendar', 'config.ts'],
  ['infra'],
  ['rate-plans', 'operator-access'],
  ['payments', 'signing', 'catalog', 'events', 'reservations'],
  ['context.ts', 'hotel-calendar', 'settlement'],
  ['messages'],
  ['checkin', 'channels'],
  ['booking'],
  ['operator', 'pages'],
  ['app.ts'],
  ['runtime.ts'],
  ['server.ts', 'cli'],
];

function layerOf(module: string): number {
  const index = LAYERS.findIndex((layer) => layer.includes(module));
  if (index < 0)
    throw new Error(`src/${module} is in no layer: add it to LAYERS in scripts/check-architecture.ts`);
  return index;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// `import … from '…'`, `import type …`, `export … from '…'`, `import '…'` and `import('…')`.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (spec?.startsWith('.')) targets.push(resolve(dirname(file), spec));
  }
  return targets;
}

const moduleOf = (file: string) => relative(SRC, file).split('/')[0] ?? '';

const files = sourceFiles(SRC);
const graph = new Map(files.map((file) => [file, importsOf(file).filter((t) => t.startsWith(SRC))]));
const problems: string[] = [];

for (const [file, targets] of graph) {
  const from = moduleOf(file);
  for (const target of targets) {
    const to = moduleOf(target);
    if (to === from) continue;
    if (layerOf(to) >= layerOf(from)) {
      problems.push(`upward or sideways import: src/${relative(SRC, file)} → src/${relative(SRC, target)}`);
    }
  }
}

// Cycles: depth-first search, reporting each cycle once by its path.
const state = new Map<string, 'visiting' | 'done'>();
const stack: string[] = [];
function visit(file: string): void {
  state.set(file, 'visiting');
  stack.push(file);
  for (const target of graph.get(file) ?? []) {
    if (state.get(target) === 'visiting') {
      const cycle = [...stack.slice(stack.indexOf(target)), target].map((f) => relative(SRC, f));
      problems.push(`import cycle: ${cycle.join(' → ')}`);
    } else if (!state.has(target) && graph.has(target)) {
      visit(target);
    }
  }
  stack.pop();
  state.set(file, 'done');
}
for (const file of files) if (!state.has(file)) visit(file);

if (problems.length > 0) {
  console.error(`architecture: ${problems.length} violation(s) (see docs/architecture.md)`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`architecture: ${files.length} files, no cycle, every import downwards`);
