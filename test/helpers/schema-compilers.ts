/**
 * The schema compilers every app a test process builds shares (test-app.ts passes them in).
 *
 * Fastify compiles each route's validators (Ajv) and response serialisers (fast-json-stringify)
 * when an app is built, and by default starts from nothing for every `Fastify()` instance. A
 * server builds one app, so that costs it only start-up time; the test suite builds hundreds of
 * apps per process (one or more per test), and compiling the same schemas again for each was most
 * of its CPU time. So compiled functions are kept per process, keyed by the schema's JSON text
 * together with the shared schemas and options they were compiled against: the same text compiles
 * to the same function. (Not by object: the OpenAPI conventions build each route's problem
 * responses afresh per app.) Only tests need it, so the app does not ship it.
 */
import { type CompilerFactory, schemaCompilers } from '../../src/infra/http/schema-compilers.ts';

/** Wraps a compiler factory so that each (shared schemas, options, schema text) compiles once. */
function compiledOnce(factory: CompilerFactory): CompilerFactory {
  const pools = new Map<string, Map<string, unknown>>();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const poolKey = JSON.stringify([externalSchemas, options ?? null]);
    let pool = pools.get(poolKey);
    if (!pool) {
      pool = new Map();
      pools.set(poolKey, pool);
    }
    const compiled = pool;
    return (route) => {
      const key = JSON.stringify(route.schema);
      if (key === undefined) return compile(route);
      let fn = compiled.get(key);
      if (fn === undefined) {
        fn = compile(route);
        compiled.set(key, fn);
      }
      return fn;
    };
  };
}

export const sharedSchemaCompilers = schemaCompilers(compiledOnce);
