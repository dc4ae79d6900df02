/**
 * The service and its CLIs compiled once per `npm test` run, for the processes tests start.
 *
 * Why: a process started as `node --import tsx src/server.ts` spends about 4 CPU s before it
 * listens, 1.7 of them loading some eighty modules through tsx's loader; the suite starts a few
 * dozen such processes. esbuild (the compiler tsx itself uses) bundles our own modules into one
 * file per entry point, leaving every package to be loaded from node_modules as it is in
 * production, so the processes run the same code the same way, only without the loader.
 *
 * The bundles sit under node_modules/ (the packages are found from there). The one module that
 * locates files at run time from its own URL (src/infra/project-files.ts) is given its source URL,
 * and the build refuses any other module that reads `import.meta`, whose answer would be the
 * bundle's place instead of its own.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** Compiles the entries into `outdir` (`src/cli/migrate.ts` → `outdir/cli/migrate.mjs`). */
export async function buildTestService(root: string, outdir: string): Promise<void> {
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
