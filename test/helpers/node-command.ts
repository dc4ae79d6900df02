import path from 'node:path';
import { TEST_BUILD_ENV } from './test-run-env.ts';

/**
 * The node arguments tests start the service's own scripts with: TypeScript through tsx, as
 * `npm start` does, and WebAssembly compiled by V8's baseline compiler only (`--liftoff-only`).
 * PGlite is a large WebAssembly module; a short-lived test process spends more CPU optimising it
 * in the background than the optimised code saves. `npm test` runs its own processes the same way.
 */
const NODE_TS = ['--liftoff-only', '--import', 'tsx'];

/**
 * The node arguments that run `script` (`src/server.ts`, `src/cli/migrate.ts`, …): its bundle
 * when `npm test` compiled one (scripts/test-service-build.ts; no module loader to pay for at each
 * start), else the TypeScript through tsx, as when one file runs alone with `node --test`.
 * `npm start` itself is tested as it is, by test/hardening/npm-start.test.ts.
 */
export function nodeScript(script: string): string[] {
  const build = process.env[TEST_BUILD_ENV];
  if (!build) return [...NODE_TS, script];
  const bundle = path.join(build, path.relative('src', script).replace(/\.ts$/, '.mjs'));
  return ['--liftoff-only', bundle];
}
