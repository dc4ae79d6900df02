/**
 * The service and its CLIs compiled to JavaScript: what `npm start`, `npm run migrate` and the
 * other CLIs run, and what the processes tests start run. `npm ci` builds it (the `prepare`
 * script), `npm run build` again after the sources change; `npm test` builds it at the start of
 * each run, so the tests run the very build `npm start` would.
 *
 * Why compiled, not loaded through tsx: a process started as `node --import tsx src/server.ts`
 * spent about 4 CPU s before it listened, 1.7 of them loading some eighty modules through tsx's
 * loader, and production code should be the code that was tested, not TypeScript translated
 * module by module at every start. esbuild (the compiler tsx itself uses) bundles our own modules
 * into one file per entry point in `dist/`, leaving every package to be loaded from node_modules.
 * esbuild is a dependency (not a dev one), as is tsx for this script: `npm ci --omit=dev` builds
 * too. Its install script is not run (`allowScripts`), and need not be: the JS API finds its
 * binary in the platform package npm installs beside it.
 *
 * The one module that locates files at run time from its own URL (src/infra/project-files.ts) is
 * given its source URL, so the build holds the checkout's absolute path: build where it runs
 * (moving the checkout needs `npm run build`). The build refuses any other module that reads
 * `import.meta`, whose answer would be the bundle's place instead of its own.
 */
import { readFile } from 'node:fs/promises';
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
];
const LOCATOR = 'src/infra/project-files.ts';

/** Where `npm start` and the CLIs' scripts find the build, relative to the project root. */
export const BUILD_DIR = 'dist';

/** Compiles the entries into `outdir` (`src/cli/migrate.ts` → `outdir/cli/migrate.mjs`). */
export async function buildService(root: string, outdir: string): Promise<void> {
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
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(path.join(root, LOCATOR)).href) },
    metafile: true,
    logLevel: 'warning',
  });
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
