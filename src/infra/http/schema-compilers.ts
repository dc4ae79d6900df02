/**
 * Fastify's schema compilers, shared by every app this process builds.
 *
 * Fastify compiles each route's validators (Ajv) and response serialisers (fast-json-stringify)
 * when an app is built, and by default starts from nothing for every `Fastify()` instance. A
 * server builds one app, so that costs it only start-up time; the test suite builds hundreds of
 * apps per process (one or more per test), and compiling the same schemas again for each was most
 * of its CPU time. So compiled functions are kept per process, keyed by the schema's JSON text
 * together with the shared schemas and options they were compiled against: the same text compiles
 * to the same function. (Not by object: the OpenAPI conventions build each route's problem
 * responses afresh per app.)
 */
import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Route = { schema?: unknown; httpPart?: string };
type CompilerFactory = (externalSchemas: unknown, options: unknown) => (route: Route) => unknown;

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

/**
 * Query strings are text, so a bounded number there (`limit`) is declared as the integer it is and
 * read from its digits: their validator coerces scalar types (Ajv's `coerceTypes: true`: `"20"` is 20,
 * `"0"` fails `minimum`, `"abc"` fails `type`), while bodies, headers and paths keep the app's
 * options (no coercion: a JSON `"2"` for `adults` stays a 400).
 */
function coercingQueryStrings(factory: CompilerFactory): CompilerFactory {
  return (externalSchemas, options) => {
    const plain = factory(externalSchemas, options);
    const opts = (options ?? {}) as { customOptions?: Record<string, unknown> };
    const coercing = factory(externalSchemas, {
      ...opts,
      customOptions: { ...opts.customOptions, coerceTypes: true },
    });
    return (route) => (route.httpPart === 'querystring' ? coercing(route) : plain(route));
  };
}

/** For Fastify's `schemaController.compilersFactory`. */
export const sharedSchemaCompilers = {
  buildValidator: coercingQueryStrings(compiledOnce(ValidatorSelector() as unknown as CompilerFactory)),
  buildSerializer: compiledOnce(SerializerSelector() as unknown as CompilerFactory),
} as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
