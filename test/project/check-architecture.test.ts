/**
 * scripts/check-architecture.ts on a small tree of its own: the feature-shape rules find a
 * re-export-only module (plain or through an import), routes without schemas and a service beside
 * commands, and leave a module that re-exports beside its own code alone.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../..');

it('reports every file that breaks the feature shape, and only those', (t) => {
  const src = mkdtempSync(path.join(tmpdir(), 'innkeep-shape-'));
  t.after(() => rmSync(src, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'booking/a.ts': 'export const a = 1;\n',
    'booking/shim.ts': "/** Moved. */\nexport { a } from './a.ts';\nexport type * from './a.ts';\n",
    'booking/passed-on.ts': "import { a } from './a.ts';\n\nexport { a as b };\n",
    'booking/own-and-passed.ts': "export { a } from './a.ts';\nexport const c = 2;\n",
    'booking/x.routes.ts': 'export const routes = 1;\n',
    'booking/y.routes.ts': 'export const routes = 1;\n',
    'booking/y.schemas.ts': 'export const Y = 1;\n',
    'booking/commands/do-it.ts': 'export function doIt() {}\n',
    'booking/old.service.ts': 'export function old() {}\n',
    'catalog/catalog-store.ts': 'export function load() {}\n',
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(src, name)), { recursive: true });
    writeFileSync(path.join(src, name), text);
  }
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-architecture.ts', src], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  const found = run.stderr
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter(Boolean)
    .sort();
  assert.deepEqual(found, [
    're-export-only module: src/booking/passed-on.ts (import from the module that defines it)',
    're-export-only module: src/booking/shim.ts (import from the module that defines it)',
    'routes without schemas: src/booking/x.routes.ts has no src/booking/x.schemas.ts beside it',
    'service beside commands: src/booking/old.service.ts (one command per use case in commands/)',
  ]);
});
