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

type Schema = Record<string, unknown>;
const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `anyOf` of a response schema that fast-json-stringify can write without choosing a branch,
 * else undefined. For an `anyOf` it runs the Ajv validator of each branch on the value, every time
 * (the `date-time` check of a nullable instant, three `const` checks of a rate plan's prepayment,
 * per offer of a search). The same text comes out of a schema that needs no choice:
 *   - a scalar or null (`Type.Union([Instant, Type.Null()])`) as `type: [scalar, 'null']`: null is
 *     written `null`, anything else by the scalar's writer, as the matching branch would;
 *   - string constants (`Type.Union([Type.Literal('a'), …])`) as `type: 'string'`: a `const` branch
 *     writes its constant, which is the value that matched it.
 * Only a value matching no branch (a defect: fast-json-stringify would throw, a 500) is written
 * differently. The documented and validating schemas are not touched: serialisers only.
 */
function leanAnyOf(options: unknown[]): Schema | undefined {
  if (!options.every(isSchema)) return undefined;
  const plain = (o: Schema) =>
    Object.keys(o).every((k) => ['type', 'format', 'const', 'description', 'examples', 'title'].includes(k));
  if (!options.every(plain)) return undefined;
  const nulls = options.filter((o) => o.type === 'null' && o.const === undefined);
  const others = options.filter((o) => !nulls.includes(o));
  if (nulls.length === 1 && others.length === 1) {
    const [scalar] = others as [Schema];
    if (typeof scalar.type !== 'string' || !SCALAR_TYPES.has(scalar.type) || scalar.const !== undefined)
      return undefined;
    return { ...scalar, type: [scalar.type, 'null'] };
  }
  if (
    nulls.length === 0 &&
    others.every((o) => o.type === 'string' && typeof o.const === 'string' && o.format === undefined)
  )
    return { type: 'string' };
  return undefined;
}

const leaned = new WeakMap<object, unknown>();

/** `schema` with every `anyOf` `leanAnyOf` can replace replaced (a copy; the same copy each time). */
export function serializerSchema<T>(schema: T): T {
  if (typeof schema !== 'object' || schema === null) return schema;
  const known = leaned.get(schema);
  if (known !== undefined) return known as T;
  let out: unknown;
  if (Array.isArray(schema)) out = schema.map((item) => serializerSchema(item));
  else {
    const copy: Schema = {};
    for (const [key, value] of Object.entries(schema as Schema)) copy[key] = serializerSchema(value);
    const replacement = Array.isArray(copy.anyOf) ? leanAnyOf(copy.anyOf) : undefined;
    if (replacement) {
      const { anyOf: _replaced, ...siblings } = copy;
      out = { ...siblings, ...replacement };
    } else out = copy;
  }
  leaned.set(schema, out);
  return out as T;
}

/** Compiles response serialisers from `serializerSchema`s of the route's and the shared schemas. */
function leanSerializers(factory: CompilerFactory): CompilerFactory {
  return (externalSchemas, options) => {
    const compile = factory(serializerSchema(externalSchemas), options);
    return (route) => compile({ ...route, schema: serializerSchema(route.schema) });
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
    buildSerializer: wrap(leanSerializers(SerializerSelector() as unknown as CompilerFactory)),
  } as unknown as SchemaCompilers;
}
