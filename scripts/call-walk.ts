/**
 * How a reader follows a use case by "go to definition" (issue 33's measure): a depth-first walk of
 * the calls of one function of `src/`, in the order they are written, each function read once, into
 * every function of `src/` it calls (not `infra/`, `dates/` or `config`, which every feature uses).
 * Each function read is a stop; a climb back up is a stop that lies in a higher layer
 * (scripts/layers.ts) than the stop read just before it: the reader went down into a
 * lower feature and comes back.
 *
 *   node --import tsx scripts/call-walk.ts src/booking/commands/create-reservation.ts createReservation
 *   WALK_LIST=1 …   also prints every stop with its layer
 */
import { relative, resolve } from 'node:path';
import ts from 'typescript';
import { layerOfFile, moduleOfFile, SHARED_MODULES } from './layers.ts';

const file = resolve(process.argv[2] ?? 'src/booking/commands/create-reservation.ts');
const name = process.argv[3] ?? 'createReservation';
const src = resolve('src');

const SKIPPED = SHARED_MODULES;
// WALK_ONLY=booking,rate-plans,…: follow calls into these modules only (one concern's path).
const ONLY = process.env.WALK_ONLY ? new Set(process.env.WALK_ONLY.split(',')) : null;
const moduleOf = (file: string) => moduleOfFile(src, file);
const layerOf = (file: string) => layerOfFile(src, file);

const program = ts.createProgram([file], {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  allowImportingTsExtensions: true,
  noEmit: true,
  strict: true,
});
const types = program.getTypeChecker();

type Body = ts.FunctionLikeDeclaration & { body: ts.Node };

/** The function a call lands in, when it is one of `src/`'s (following imports and aliases). */
function calleeOf(call: ts.CallExpression | ts.NewExpression): Body | null {
  const target = ts.isCallExpression(call) || call.expression ? call.expression : null;
  if (!target) return null;
  let symbol = types.getSymbolAtLocation(ts.isPropertyAccessExpression(target) ? target.name : target);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = types.getAliasedSymbol(symbol);
  for (const declaration of symbol?.declarations ?? []) {
    const path = declaration.getSourceFile().fileName;
    if (!path.startsWith(`${src}/`) || SKIPPED.has(moduleOf(path))) continue;
    if (ONLY && !ONLY.has(moduleOf(path))) continue;
    const fn = ts.isVariableDeclaration(declaration) ? declaration.initializer : declaration;
    if (
      fn &&
      (ts.isFunctionDeclaration(fn) ||
        ts.isMethodDeclaration(fn) ||
        ts.isArrowFunction(fn) ||
        ts.isFunctionExpression(fn)) &&
      fn.body
    )
      return fn as Body;
    if (ts.isPropertyAssignment(declaration) && declaration.initializer) {
      const init = declaration.initializer;
      if ((ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && init.body) return init as Body;
    }
  }
  return null;
}

function startOf(): Body {
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  let found: Body | null = null;
  source.forEachChild(function look(node) {
    if (found) return;
    if (
      (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) &&
      node.name?.getText() === name &&
      node.body
    )
      found = node as Body;
    else if (ts.isVariableDeclaration(node) && node.name.getText() === name && node.initializer)
      found = node.initializer as Body;
    else node.forEachChild(look);
  });
  if (!found) throw new Error(`no function ${name} in ${file}`);
  return found;
}

const stops: { file: string; name: string }[] = [];
const seen = new Set<ts.Node>();
(function walk(fn: Body) {
  if (seen.has(fn)) return;
  seen.add(fn);
  const path = fn.getSourceFile().fileName;
  const label =
    fn.name?.getText() ??
    (ts.isVariableDeclaration(fn.parent) || ts.isPropertyAssignment(fn.parent)
      ? fn.parent.name.getText()
      : '(anonymous)');
  stops.push({ file: path, name: label });
  fn.body.forEachChild(function visit(node) {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      node.forEachChild(visit); // the arguments' calls run first
      const callee = calleeOf(node);
      if (callee) walk(callee);
      return;
    }
    node.forEachChild(visit);
  });
})(startOf());

let climbs = 0;
for (let i = 1; i < stops.length; i++) {
  const up = layerOf((stops[i] as { file: string }).file) > layerOf((stops[i - 1] as { file: string }).file);
  if (up) climbs++;
}
if (process.env.WALK_LIST)
  for (const s of stops) console.log(layerOf(s.file), `${relative(src, s.file)}:${s.name}`);
const files = new Set(stops.map((s) => s.file));
console.log(`${stops.length} stops in ${files.size} files, ${climbs} climbs back up`);
