/**
 * Fastify's schema compilers for the app: its default ones (Ajv, fast-json-stringify), with query
 * strings' scalar types coerced (below). A caller that builds many apps in one process (the test
 * suite) passes a `wrap` that keeps compiled functions across them (test/helpers/schema-compilers.ts);
 * the service builds one app and needs none.
 */
import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

export type Route = { schema?: unknown; httpPart?: string };
export type CompilerFactory = (externalSchemas: unknown, options: unknown) => (route: Route) => unknown;

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

export type SchemaCompilers = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/** For Fastify's `schemaController.compilersFactory`; `wrap` sees each underlying factory. */
export function schemaCompilers(
  wrap: (factory: CompilerFactory) => CompilerFactory = (f) => f,
): SchemaCompilers {
  return {
    buildValidator: coercingQueryStrings(wrap(ValidatorSelector() as unknown as CompilerFactory)),
    buildSerializer: wrap(SerializerSelector() as unknown as CompilerFactory),
  } as unknown as SchemaCompilers;
}
