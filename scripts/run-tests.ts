/**
 * `npm test`: every `*.test.ts` under src/ and test/, in a few test processes instead of one per
 * file.
 *   npm test                        the whole suite
 *   npm test -- test/booking src/   only the files under these paths (or these files)
 *   npm test -- --write-weights     also record each file's time in test/weights.json
 *   npm run test:pg -- -- --write-weights                the same for the PostgreSQL run
 *
 * It prints a line per test file as it ends, then each failing test (file, suite and test names,
 * where it is declared, the first lines of its error), then node's totals (`# tests`, `# pass`,
 * `# fail`, …, as node's own reporters end). The whole TAP report, with every test and the output
 * of each, is written to test-results/embedded.tap (test-results/postgres.tap under test:pg).
 *
 * Why: a test process spends about five CPU seconds before its first test (loading the service's
 * modules through tsx, compiling PGlite's WebAssembly and opening it, compiling the OpenAPI
 * checker), and the suite has about eighty files: one process per file spent most of `npm test`
 * on start-up. So the suite runs in one test process per core (TEST_CONCURRENCY to change it),
 * each taking the next file from a shared queue when it finishes the last: the longest files first
 * (by the seconds recorded in test/weights.json, per engine), so the processes end together. More
 * processes than cores was measured slower on the 2-core machine: each costs its start-up again,
 * and three or four at once took more CPU in all than two.
 *
 * Each file still runs as if alone: it is imported inside a suite named after it, so its
 * top-level hooks are that suite's (its `after` runs when its own tests end, not the shard's), and
 * the suite's first hook gives it a database of its own (test/helpers/test-database.ts), on either
 * engine. A file still runs by itself with `node --import tsx --test <file>`.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TEST_BUILD_ENV, TEST_SHARD_ENV } from '../test/helpers/test-run-env.ts';
import { BUILD_DIR as BUILD, buildService } from './build.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WEIGHTS = path.join(ROOT, 'test', 'weights.json');
const SHARD_DIR = path.join(ROOT, 'node_modules', '.cache', 'innkeep-test', `shards-${process.pid}`);
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY ?? Math.max(2, availableParallelism()));

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
const PROCESSES = Math.min(CONCURRENCY, files.length);

await mkdir(SHARD_DIR, { recursive: true });
// The processes tests start run the service and CLIs as `npm start` and the CLIs' scripts do: the
// project's build (`dist/`, see build.ts), made again here so it holds the sources under test.
// A run started by a test of this runner (test/hardening/test-runner.test.ts) is given the outer
// run's build instead: building `dist/` again rewrote it under the other tests' feet, and a
// service starting meanwhile read a chunk half written ("does not provide an export named …").
const BUILD_DIR = process.env[TEST_BUILD_ENV] ?? path.join(ROOT, BUILD);
if (process.env[TEST_BUILD_ENV] === undefined) await buildService(ROOT, BUILD_DIR);
process.env[TEST_BUILD_ENV] = BUILD_DIR;
// Tells test-database.ts that each file's suite begins the file (no root-level database to make).
process.env[TEST_SHARD_ENV] = '1';
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
/** The next file no process has taken: its marker is created by exactly one of them. Files are
 * taken in queue order, so every one before this process's last is taken already. */
let next = 0;
function claim(): number | undefined {
  for (; next < queue.length; next++) {
    try {
      closeSync(openSync(${JSON.stringify(CLAIMS)} + '/' + next, 'wx'));
      return next++;
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

// The whole TAP report goes to a file; the terminal gets one line per test file as it ends, then
// the failures (file, test and message), then node's own counts.
const RESULTS = process.env.TEST_RESULTS_DIR
  ? path.resolve(process.env.TEST_RESULTS_DIR)
  : path.join(ROOT, 'test-results');
await mkdir(RESULTS, { recursive: true });
const reportPath = path.join(RESULTS, `${engine}.tap`);
const report = stream.compose(tap).pipe(createWriteStream(reportPath));

/** The names of the tests now running in each test file (by nesting), to name a failure in full. */
const running = new Map<string, string[]>();
const failures: { file: string; name: string; where: string; message: string }[] = [];
const counts = new Map<string, string>();
const relative = (file: string | undefined) =>
  file === undefined ? '?' : path.relative(ROOT, file.startsWith('file:') ? fileURLToPath(file) : file);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

stream.on('test:start', (event) => {
  const names = running.get(event.file ?? '') ?? [];
  names.length = event.nesting;
  names.push(event.name);
  running.set(event.file ?? '', names);
});
stream.on('test:fail', (event) => {
  failed = true;
  if (event.nesting === 0) {
    // A file's suite, or a shard (a crash of its process): either is a failure of its own only when
    // it is not just its tests failing, e.g. a file that cannot be imported.
    reported.add(event.name);
    if (files.includes(event.name)) console.log(`FAIL ${event.name} (${seconds(event.details.duration_ms)})`);
  }
  const error = event.details.error as Error & { failureType?: string; cause?: unknown };
  if (error.failureType === 'subtestsFailed') return; // its failing tests are listed themselves
  const cause = error.cause instanceof Error ? error.cause : error;
  const names = (running.get(event.file ?? '') ?? []).slice(1, event.nesting);
  failures.push({
    file: event.nesting === 0 ? event.name : relative(event.file),
    name:
      event.nesting === 0
        ? '(the file itself: its import or hooks)'
        : [...names.filter(Boolean), event.name].join(' › '),
    where: event.nesting === 0 ? event.name : `${relative(event.file)}:${event.line ?? '?'}`,
    message: String(cause.message ?? cause)
      .trim()
      .split('\n')
      .slice(0, 12)
      .join('\n'),
  });
});
stream.on('test:pass', (event) => {
  // A file's suite is a top-level test of its shard.
  if (event.nesting !== 0) return;
  reported.add(event.name);
  if (!files.includes(event.name)) return; // the shard itself
  console.log(`ok   ${event.name} (${seconds(event.details.duration_ms)})`);
  durations[event.name] = event.details.duration_ms / 1000;
});
stream.on('test:diagnostic', (event) => {
  // The run's totals, as node's reporters end with them ("tests 660", "pass 642", …).
  const [key] = event.message.split(' ');
  if (event.nesting === 0 && /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)$/.test(key ?? ''))
    counts.set(key as string, event.message);
});
await new Promise<void>((resolve) => report.on('finish', () => resolve()));
await rm(SHARD_DIR, { recursive: true, force: true });

// A shard that ended early must not pass for the files it never ran.
const unreported = files.filter((f) => !reported.has(f));
if (unreported.length > 0) {
  console.error(`no result for ${unreported.length} test file(s): ${unreported.join(', ')}`);
  failed = true;
}

if (failures.length > 0) {
  console.log(`\n${failures.length} failing test(s):`);
  for (const f of failures) {
    console.log(`\n✖ ${f.file} › ${f.name}\n  at ${f.where}`);
    console.log(f.message.replace(/^/gm, '    '));
  }
}
console.log(`\nfull report: ${path.relative(process.cwd(), reportPath)}`);
for (const message of counts.values()) console.log(`# ${message}`);

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
