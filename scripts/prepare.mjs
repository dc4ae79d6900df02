/**
 * npm's `prepare` script, run by `npm ci` and `npm install` in this folder. Plain JavaScript, so
 * that it runs in a production install too, where the build tools are not installed.
 *
 * - With the dev dependencies (`npm ci`, a checkout): builds `dist/` (scripts/build.ts).
 * - Without them (`npm ci --omit=dev`, a release that was built elsewhere and copied here with
 *   its `dist/`): nothing to build, the release's `dist/` is what runs; says so on stderr.
 * - Without them and without `dist/`: fails, saying how to get a build, rather than installing a
 *   tree `npm start` cannot run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const require = createRequire(`${root}package.json`);

function installed(name) {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

if (installed('tsx') && installed('esbuild')) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  process.exit(result.status ?? 1);
}
if (existsSync(`${root}dist/server.mjs`)) {
  process.stderr.write(
    'innkeep prepare: no build tools (a production install): running the dist/ built before\n',
  );
  process.exit(0);
}
process.stderr.write(
  'innkeep prepare: dist/ is missing and the build tools are not installed (npm ci --omit=dev).\n' +
    'Build first: `npm ci` with the dev dependencies (then `npm prune --omit=dev`), or install a release\n' +
    'that holds dist/ (docs/production.md, section 9).\n',
);
process.exit(1);
