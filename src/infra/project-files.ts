import { fileURLToPath } from 'node:url';

/**
 * The project's root folder, where the files the service reads at run time live: `migrations/`,
 * `catalog/demo.json`, `web/`. Found from this one module's URL, two levels below the root: the
 * compiled service in `dist/` (scripts/build.ts), which `npm start` runs, gives this module its
 * source URL, so the build finds them too.
 */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const projectFile = (relative: string): string => PROJECT_ROOT + relative;
