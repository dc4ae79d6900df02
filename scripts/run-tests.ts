/**
 * `npm test`: every `*.test.ts` under src/ and test/, in a few test processes instead of one per
 * file.
 *   npm test                        the whole suite
 *   npm test -- test/booking src/   only the files under these paths (or these files)
 *   npm test -- --write-weights     also record each file's time in test/weights.json
 *   npm run test:pg -- -- --write-weights                the same for the PostgreSQL run
 *
 * Why: a test process spends about five CPU seconds before its first test (loading the service's
 * modules through tsx, compiling PGlite's WebAssembly and opening it, compiling the OpenAPI
 * checker), and the suite has about eighty files: one process per file spent most of `npm test`
 * on start-up. Files are packed into SHARDS processes by their recorded times
 * (seconds in test/weights.json, per engine; the longest first, each into the lightest shard) and the test runner runs
 * `--test-concurrency` of them at once.
 *
 * Each file still runs as if alone: it is imported inside a suite named after it, so its
 * top-level hooks are that suite's (its `after` runs when its own tests end, not the shard's), and
 * the suite's first hook gives it a database of its own (test/helpers/test-database.ts), on either
 * engine. A file still runs by itself with `node --import tsx --test <file>`.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildTestService, TEST_BUILD_ENV } from './test-service-build.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WEIGHTS = path.join(ROOT, 'test', 'weights.json');
const SHARD_DIR = path.join(ROOT, 'node_modules', '.cache', 'innkeep-test', `shards-${process.pid}`);
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY ?? Math.max(2, availableParallelism()));
/**
 * One shard per process at once: each further process costs its start-up again, and on a two-core
 * machine three or four processes at once took more CPU in all than two (measured: 2 shards 154 s,
 * 6 shards 165 s, 3 at once 166 s, 4 at once 178 s). The recorded times keep the shards even.
 */
const SHARDS = Number(process.env.TEST_SHARDS ?? CONCURRENCY);

const args = process.argv.slice(2);
const writeWeights = args.includes('--write-weights');
const selectors = args.filter((a) => !a.startsWith('--')).map((a) => path.relative(ROOT, path.resolve(a)));

const all = (
  await Promise.all(
    ['src', 'test'].map(async (dir) =>
      (
        await readdir(path.join(ROOT, dir), { recursive: true })
      )
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => path.join(dir, f)),
    ),
  )
)
  .flat()
  .sort();
const files = selectors.length
  ? all.filter((f) => selectors.some((s) => f === s || f.startsWith(`${s.replace(/\/$/, '')}/`)))
  : all;
if (files.length === 0) {
  console.error(`no test files under ${selectors.join(', ')}`);
  process.exit(2);
}

// Times differ by engine (the multi-process PostgreSQL tests skip on the embedded one).
const engine = process.env.DATABASE_URL ? 'postgres' : 'embedded';
const recorded: Record<string, Record<string, number>> = JSON.parse(
  await readFile(WEIGHTS, 'utf8').catch(() => '{}'),
);
const weights = recorded[engine] ?? {};
const known = Object.values(weights).sort((a, b) => a - b);
const typical = known[Math.floor(known.length / 2)] ?? 1;
const weightOf = (file: string) => weights[file] ?? typical;

// Longest first: the processes take files from this queue as they finish the last, so they end
// together whatever the machine (a file claims its place by creating a marker file, atomically).
const queue = [...files].sort((a, b) => weightOf(b) - weightOf(a));
const PROCESSES = Math.min(SHARDS, files.length);

await mkdir(SHARD_DIR, { recursive: true });
// The processes tests start run the service and CLIs compiled once here (see test-service-build.ts).
const BUILD_DIR = path.join(SHARD_DIR, 'service');
await buildTestService(ROOT, BUILD_DIR);
process.env[TEST_BUILD_ENV] = BUILD_DIR;
// Tells test-database.ts that each file's suite begins the file (no root-level database to make).
process.env.INNKEEP_TEST_SHARD = '1';
const database = pathToFileURL(path.join(ROOT, 'test', 'helpers', 'test-database.ts')).href;
const CLAIMS = path.join(SHARD_DIR, 'claims');
await mkdir(CLAIMS);
const entries = queue.map((f) => [f, pathToFileURL(path.join(ROOT, f)).href]);
const shardFiles = await Promise.all(
  Array.from({ length: PROCESSES }, async (_, i) => {
    // .mts: as a .ts file under node_modules/ it would load as CommonJS, and its import of
    // test-database.ts would be a second copy of that module, not the one the test files share.
    const file = path.join(SHARD_DIR, `shard-${String(i + 1).padStart(2, '0')}.test.mts`);
    await writeFile(
      file,
      `// Generated by scripts/run-tests.ts: one test process, taking test files from a shared queue.
// Files are declared one at a time (await describe), each once the one before has ended; so no
// root-level hook here: the runner runs those after the first file.
import { openSync, closeSync } from 'node:fs';
import { before, describe } from 'node:test';
import { beginTestFile, closeTestDatabases } from ${JSON.stringify(database)};
const queue = ${JSON.stringify(entries)};
/** The next file no process has taken: its marker is created by exactly one of them. */
function claim(): number | undefined {
  for (let i = 0; i < queue.length; i++) {
    try {
      closeSync(openSync(${JSON.stringify(CLAIMS)} + '/' + i, 'wx'));
      return i;
    } catch {}
  }
  return undefined;
}
for (let i = claim(); i !== undefined; i = claim()) {
  const [name, url] = queue[i];
  await describe(name, async () => {
    before(beginTestFile);
    await import(url);
  });
}
await closeTestDatabases();
// A timer left behind (a closed PGlite's Emscripten timers are not cleared) must not keep the
// shard waiting: the results are reported by then. Unref'd, so it never keeps a shard alive itself.
setTimeout(() => {
  console.error('shard: still running 5 s after its last test (a leaked handle); exiting');
  process.exit();
}, 5000).unref();
`,
    );
    return file;
  }),
);

const durations: Record<string, number> = {};
let failed = false;
const stream = run({ files: shardFiles, concurrency: CONCURRENCY });
const reported = new Set<string>();
stream.on('test:fail', (event) => {
  failed = true;
  if (event.nesting === 0) reported.add(event.name);
});
stream.on('test:pass', (event) => {
  // A file's suite is a top-level test of its shard.
  if (event.nesting !== 0) return;
  reported.add(event.name);
  if (files.includes(event.name)) durations[event.name] = event.details.duration_ms / 1000;
});
const reporter = process.stdout.isTTY ? stream.compose(new spec()) : stream.compose(tap);
reporter.pipe(process.stdout);
await new Promise((resolve) => reporter.on('end', resolve));
await rm(SHARD_DIR, { recursive: true, force: true });

// A shard that ended early must not pass for the files it never ran.
const unreported = files.filter((f) => !reported.has(f));
if (unreported.length > 0) {
  console.error(`no result for ${unreported.length} test file(s): ${unreported.join(', ')}`);
  failed = true;
}

if (writeWeights) {
  const rounded = Object.fromEntries(
    Object.entries({ ...weights, ...durations })
      .filter(([f]) => all.includes(f))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([f, seconds]) => [f, Math.round(seconds * 10) / 10]),
  );
  await writeFile(WEIGHTS, `${JSON.stringify({ ...recorded, [engine]: rounded }, null, 2)}\n`);
}
process.exitCode = failed ? 1 : 0;
