/**
 * scripts/check-architecture.ts on a small tree of its own: the feature-shape rules find a
 * re-export-only module (plain or through an import), routes without schemas, a service anywhere,
 * a routes file importing a repository (directly or passed on) and SQL naming a table outside a
 * repository, and leave alone a module that re-exports beside its own code, a type-only import of
 * a repository, SQL in a repository or infra/db/, and SQL naming no table (an advisory lock).
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
    'catalog/catalog.service.ts': 'export function load() {}\n',
    'booking/list.repository.ts': "export const listRepository = { q: 'SELECT code FROM reservations' };\n",
    'booking/list.routes.ts':
      "import { listRepository } from './list.repository.ts';\n\nexport const r = listRepository;\n",
    'booking/list.schemas.ts': 'export const L = 1;\n',
    'booking/typed.routes.ts':
      "import type { listRepository } from './list.repository.ts';\n\nexport type R = typeof listRepository;\n",
    'booking/typed.schemas.ts': 'export const T = 1;\n',
    'booking/commands/find.ts':
      "import { listRepository } from '../list.repository.ts';\n\nexport { listRepository };\nexport function find() {}\n",
    'booking/find.routes.ts':
      "import { find, listRepository } from './commands/find.ts';\n\nexport const f = [find, listRepository];\n",
    'booking/find.schemas.ts': 'export const F = 1;\n',
    'booking/commands/raw.ts': 'export const Q = `UPDATE reservations SET status = $1 WHERE code = $2`;\n',
    'booking/lock.ts': "export const LOCK = 'SELECT pg_advisory_xact_lock($1)';\n",
    'infra/db/engine.ts': "export const M = 'INSERT INTO schema_migrations (id) VALUES ($1)';\n",
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
    'SQL outside a repository: src/booking/commands/raw.ts (SQL of a table lives in its x.repository.ts)',
    're-export-only module: src/booking/passed-on.ts (import from the module that defines it)',
    're-export-only module: src/booking/shim.ts (import from the module that defines it)',
    'routes importing a repository: src/booking/find.routes.ts → listRepository of src/booking/commands/find.ts (call a command)',
    'routes importing a repository: src/booking/list.routes.ts → src/booking/list.repository.ts (call a command)',
    'routes without schemas: src/booking/x.routes.ts has no src/booking/x.schemas.ts beside it',
    'service: src/booking/old.service.ts (one command per use case in commands/; state in a store)',
    'service: src/catalog/catalog.service.ts (one command per use case in commands/; state in a store)',
  ]);
});
