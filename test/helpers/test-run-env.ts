/**
 * The environment variables `npm test` (scripts/run-tests.ts) sets for its test processes, named
 * once here for the runner and the helpers that read them.
 */

/** The folder of the service and CLIs compiled for this run (`dist/`, scripts/build.ts). */
export const TEST_BUILD_ENV = 'INNKEEP_TEST_BUILD';

/** Set in a process that runs several test files one after another (each file begins itself). */
export const TEST_SHARD_ENV = 'INNKEEP_TEST_SHARD';
