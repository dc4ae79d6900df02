/**
 * The node arguments tests start the service's own scripts with: TypeScript through tsx, as
 * `npm start` does, and WebAssembly compiled by V8's baseline compiler only (`--liftoff-only`).
 * PGlite is a large WebAssembly module; a short-lived test process spends more CPU optimising it
 * in the background than the optimised code saves. `npm test` runs its own processes the same way.
 */
export const NODE_TS = ['--liftoff-only', '--import', 'tsx'];
