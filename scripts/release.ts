/**
 * `npm run release [-- FILE]`: builds `dist/` afresh and writes a release tarball
 * (`innkeep-<version>.tar.gz` by default) holding `RELEASE_FILES` (scripts/build.ts) under one
 * folder, `innkeep-<version>/`. Unpacked anywhere and installed with `npm ci --omit=dev`, it runs:
 * the build finds its files from where it is (docs/production.md, section 9).
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR, buildService, RELEASE_FILES } from './build.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const { version } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};
const name = `innkeep-${version}`;
const file = path.resolve(process.argv[2] ?? `${name}.tar.gz`);
await buildService(root, path.join(root, BUILD_DIR));
execFileSync(
  'tar',
  ['-czf', file, '--owner=0', '--group=0', `--transform=s,^,${name}/,`, '-C', root, ...RELEASE_FILES],
  { stdio: 'inherit' },
);
process.stderr.write(`${file}\n`);
