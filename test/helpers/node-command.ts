import path from 'node:path';
import { TEST_BUILD_ENV } from './test-run-env.ts';

/**
 * The node arguments tests start the service's own scripts with when no build is at hand: TypeScript
 * through tsx, and WebAssembly compiled by V8's baseline compiler only (`--liftoff-only`).
 * PGlite is a large WebAssembly module; a short-lived test process spends more CPU optimising it
 * in the background than the optimised code saves. `npm test` runs its own processes the same way.
 */
const NODE_TS = ['--liftoff-only', '--import', 'tsx'];

/**
 * The node arguments that run `script` (`src/server.ts`, `src/cli/migrate.ts`, …): its compiled
 * form in `dist/`, as `npm start` and the CLIs' scripts run it, which `npm test` builds afresh at
 * the start of its run (scripts/build.ts); else, when one file runs alone with `node --test` and
 * `dist/` may be older than the sources, the TypeScript through tsx.
 * `npm start` itself is tested as it is, by test/hardening/npm-start.test.ts.
 */
export function nodeScript(script: string): string[] {
  const build = process.env[TEST_BUILD_ENV];
  if (!build) return [...NODE_TS, script];
  const bundle = path.join(build, path.relative('src', script).replace(/\.ts$/, '.mjs'));
  return ['--liftoff-only', bundle];
}
