/**
 * The service and its CLIs compiled to JavaScript: what `npm start`, `npm run migrate` and the
 * other CLIs run, and what the processes tests start run. `npm ci` builds it (the `prepare`
 * script, scripts/prepare.mjs), `npm run build` again after the sources change; `npm test` builds
 * it at the start of each run, so the tests run the very build `npm start` would.
 *
 * Why compiled, not loaded through tsx: a process started as `node --import tsx src/server.ts`
 * spent about 4 CPU s before it listened, 1.7 of them loading some eighty modules through tsx's
 * loader, and production code should be the code that was tested, not TypeScript translated
 * module by module at every start. esbuild (the compiler tsx itself uses) bundles our own modules
 * into one file per entry point in `dist/`, leaving every package to be loaded from node_modules.
 * esbuild and tsx are dev dependencies: a production install (`npm ci --omit=dev`) runs a build
 * made before, and holds only what runs. esbuild's install script is not run (`allowScripts`), and
 * need not be: the JS API finds its binary in the platform package npm installs beside it.
 *
 * The build runs wherever it is put: nothing in it names the folder it was built in. The one
 * module that locates files at run time (src/infra/project-files.ts) finds the project's root
 * from its own place in `dist/`, and the files kept beside the code (`CODE_FILES`) are copied into
 * `dist/`, so a release is `dist/` with `migrations/`, `catalog/`, `web/`, `package.json` and the
 * production `node_modules/` beside it: no `src/`. The build refuses any other module that reads
 * `import.meta`, whose answer would be the bundle's place instead of its own.
 */
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ENTRIES = [
  'src/server.ts',
  'src/cli/backup.ts',
  'src/cli/migrate.ts',
  'src/cli/operator-key.ts',
  'src/cli/purge-identity.ts',
  'src/cli/rotate-keys.ts',
  'src/cli/staff.ts',
];
const LOCATOR = 'src/infra/project-files.ts';
/**
 * Files the code reads beside itself (`codeFile()` of the locator), relative to `src/`: copied to
 * the same place under the build's folder.
 */
export const CODE_FILES = ['infra/http/docs-theme'];

/** Where `npm start` and the CLIs' scripts find the build, relative to the project root. */
export const BUILD_DIR = 'dist';

/**
 * What a release holds (`npm run release`, scripts/release.ts), relative to the project root: the
 * build and the files it reads, and what `npm ci --omit=dev` needs to install the production
 * packages beside them (the lockfile, the `prepare` script, which keeps the `dist/` it finds).
 */
export const RELEASE_FILES = [
  'package.json',
  'package-lock.json',
  'scripts/prepare.mjs',
  BUILD_DIR,
  'migrations',
  'catalog',
  'web',
];

/**
 * Compiles the entries into `outdir` (`src/cli/migrate.ts` → `outdir/cli/migrate.mjs`), a folder
 * directly in `root`: the build finds the project's files from there (src/infra/project-files.ts).
 */
export async function buildService(root: string, outdir: string): Promise<void> {
  if (path.dirname(path.resolve(outdir)) !== path.resolve(root)) {
    throw new Error(`the build's folder (${outdir}) must be directly in the project's root (${root})`);
  }
  const result = await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outbase: 'src',
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Modules an entry imports dynamically (the service's, after its configuration and DATA_DIR
    // checks) stay in chunks of their own, loaded only when reached, as they are from source.
    splitting: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
  });
  // What an earlier build left (chunks of other sources) goes, so that `dist/` holds this build
  // only: a release copies it as it is. Files of the same sources keep their names.
  const outputs = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(root, file)));
  for (const file of await readdir(outdir, { recursive: true })) {
    const full = path.resolve(outdir, file);
    if (full.endsWith('.mjs') && !outputs.has(full)) await rm(full, { force: true });
  }
  for (const relative of CODE_FILES) {
    await cp(path.join(root, 'src', relative), path.join(outdir, relative), { recursive: true });
  }
  const readers: string[] = [];
  for (const input of Object.keys(result.metafile.inputs)) {
    if (input === LOCATOR) continue;
    if ((await readFile(path.join(root, input), 'utf8')).includes('import.meta')) readers.push(input);
  }
  if (readers.length > 0) {
    throw new Error(
      `${readers.join(', ')} read import.meta, which a bundle answers for the bundle: locate files through ${LOCATOR}`,
    );
  }
}

// `npm run build` (and `npm ci`'s `prepare`): the project this script belongs to, into `dist/`.
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const root = fileURLToPath(new URL('../', import.meta.url));
  await buildService(root, path.join(root, BUILD_DIR));
}
