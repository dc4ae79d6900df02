import { fileURLToPath } from 'node:url';

/**
 * The project's root folder, where the files the service reads at run time live: `migrations/`,
 * `catalog/demo.json`, `web/`. Named in one place, two levels above this file, so that a bundled
 * build of the service placed two levels below the root (the test runner compiles one for the
 * processes tests start; see scripts/run-tests.ts) finds them too.
 */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const projectFile = (relative: string): string => PROJECT_ROOT + relative;
