/**
 * The rules of docs/architecture.md that a program can check, on every `npm run lint`:
 *   node --import tsx scripts/check-architecture.ts [folder, default src/]
 * 1. No import cycle among the files of src/, type-only imports included.
 * 2. Imports run downwards: a file imports only its own layer (the same folder) or lower layers.
 * 3. The feature shape: no re-export-only module (a file that only passes on what others export:
 *    importers import from the defining module); every `x.routes.ts` has its `x.schemas.ts` beside
 *    it; no `*.service.ts` anywhere (use cases are commands, in-memory state a store); no routes
 *    file importing a repository (routes reach data through commands; a type-only import is not
 *    a reach); no SQL naming a table outside a `*.repository.ts` (infra/db/, the database layer
 *    itself, excepted).
 * Exits 1 listing every violation; ALLOWED below would list files still to move (none now).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { LAYERS } from './layers.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Another folder (a test's small tree) is checked without the allow-list below.
const GIVEN = process.argv[2];
const SRC = GIVEN ? resolve(GIVEN) : join(ROOT, 'src');

/**
 * Files of src/ that break a feature-shape rule today, each with the rule it may still break: none
 * now (issue 33 moved the last of them). Add a line only for a file being moved, with its rule.
 */
type Rule = 'service' | 'routes-repository' | 'sql';
const ALLOWED: Record<string, Rule[]> = {};
const allowed = (path: string, rule: Rule) => ALLOWED[path]?.includes(rule) ?? false;

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

/** The names a file's imports bind (`import a, { b as c }, * as d`). */
function importedNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const { name, namedBindings } = statement.importClause;
    if (name) names.add(name.text);
    if (namedBindings && ts.isNamespaceImport(namedBindings)) names.add(namedBindings.name.text);
    else if (namedBindings) for (const element of namedBindings.elements) names.add(element.name.text);
  }
  return names;
}

/**
 * A module that only passes on other modules' exports: every statement an import, an
 * `export … from`, or an `export { … }` / `export default` of imported names.
 */
function isReExportOnly(file: string): boolean {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const imported = importedNames(source);
  let exports = 0;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) continue;
    exports++;
    if (ts.isExportAssignment(statement)) {
      if (!ts.isIdentifier(statement.expression) || !imported.has(statement.expression.text)) return false;
      continue;
    }
    if (!ts.isExportDeclaration(statement)) return false;
    if (statement.moduleSpecifier) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) return false;
    if (!clause.elements.every((e) => imported.has((e.propertyName ?? e.name).text))) return false;
  }
  return exports > 0;
}

/**
 * The repositories a module imports values from (`import type`, `import { type X }` left out):
 * a `*.repository.ts` file, or a `…Repository` object passed on by another module.
 */
function repositoryImportsOf(source: ts.SourceFile, file: string): string[] {
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly) continue;
    const target = relative(SRC, resolve(dirname(file), statement.moduleSpecifier.text));
    const bindings = clause.namedBindings;
    const values =
      bindings && ts.isNamedImports(bindings) ? bindings.elements.filter((e) => !e.isTypeOnly) : [];
    if (
      target.endsWith('.repository.ts') &&
      (clause.name || values.length > 0 || !bindings || !ts.isNamedImports(bindings))
    )
      found.push(`src/${target}`);
    else
      for (const e of values)
        if (/Repository$/.test((e.propertyName ?? e.name).text))
          found.push(`${(e.propertyName ?? e.name).text} of src/${target}`);
  }
  return found;
}

/**
 * SQL that names a table: `INSERT INTO t`, `UPDATE t SET`, `DELETE FROM t`, `FROM t` or `JOIN t`
 * (a function after FROM, `pg_advisory_xact_lock(…)`, names none). The code writes SQL keywords in
 * capitals, which prose in strings does not.
 */
const TABLE_SQL =
  /\b(?:INSERT\s+INTO\s+[a-z_]+|UPDATE\s+[a-z_]+\s+SET|DELETE\s+FROM\s+[a-z_]+|(?:FROM|JOIN)\s+[a-z_]+\b(?!\s*\())/;

/** Whether a string or template literal of the file holds SQL naming a table. */
function holdsTableSql(source: ts.SourceFile): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found = TABLE_SQL.test(node.text);
    } else if (ts.isTemplateExpression(node)) {
      found = TABLE_SQL.test(
        [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' x '),
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

for (const file of files) {
  const path = relative(SRC, file);
  if (isReExportOnly(file)) {
    problems.push(`re-export-only module: src/${path} (import from the module that defines it)`);
  }
  if (file.endsWith('.routes.ts')) {
    const schemas = file.replace(/\.routes\.ts$/, '.schemas.ts');
    if (!existsSync(schemas)) {
      problems.push(`routes without schemas: src/${path} has no src/${relative(SRC, schemas)} beside it`);
    }
  }
  if (file.endsWith('.service.ts') && !allowed(path, 'service')) {
    problems.push(`service: src/${path} (one command per use case in commands/; state in a store)`);
  }
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  if (file.endsWith('.routes.ts') && !allowed(path, 'routes-repository')) {
    for (const target of repositoryImportsOf(source, file)) {
      problems.push(`routes importing a repository: src/${path} → ${target} (call a command)`);
    }
  }
  const sqlExempt =
    file.endsWith('.repository.ts') || file.endsWith('.test.ts') || path.startsWith('infra/db/');
  if (!sqlExempt && !allowed(path, 'sql') && holdsTableSql(source)) {
    problems.push(`SQL outside a repository: src/${path} (SQL of a table lives in its x.repository.ts)`);
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
console.log(
  `architecture: ${files.length} files, no cycle, every import downwards, every feature in its shape`,
);
