import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the files the service reads at run time live, found from the running code's own place,
 * never from a path recorded when it was built: a build copied to another folder (a release
 * built in CI, in a container stage, under `/opt/innkeep/releases/1.1.0`) finds its files there.
 *
 * This module runs from `src/infra/` (tsx, the tests) or from the build, bundled into one of the
 * files of `dist/` (`dist/` or `dist/cli/`, wherever esbuild put it: scripts/build.ts). The
 * project's root is the nearest folder above it that holds `package.json`; the folder of the code
 * is the root's child this module was loaded from (`src` or `dist`).
 */
function locate(): { root: string; code: string } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) {
      const code = path.relative(dir, here).split(path.sep)[0] ?? '';
      return { root: dir + path.sep, code: code + path.sep };
    }
    if (path.dirname(dir) === dir)
      throw new Error(`no package.json above ${here}: the project's root is not found`);
  }
}

const LOCATED = locate();

/** The project's root folder: `migrations/`, `catalog/demo.json`, `web/`, `node_modules/`. */
export const PROJECT_ROOT = LOCATED.root;

/** A file of the project (`migrations/`, `catalog/demo.json`, `web/`), relative to its root. */
export const projectFile = (relative: string): string => PROJECT_ROOT + relative;

/**
 * A file kept beside the code that reads it (`infra/http/docs-theme/innkeep-docs.css`), relative
 * to `src/`: read from `src/` when running from source, from the build's copy in `dist/` (which
 * scripts/build.ts makes, `CODE_FILES`) when running the build, so a release needs no `src/`.
 */
export const codeFile = (relative: string): string => PROJECT_ROOT + LOCATED.code + relative;
