import { Kind, type Static, type TLiteral, type TObject, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Reading the environment through a TypeBox schema (API.md section 6). Each property of the schema
 * names its variable (`env`) and the sentence a user reads when the value is refused (`problem`,
 * where `{got}` stands for the value given; `missing` when a required one is absent). Values are
 * trimmed, an empty one counts as unset, numbers and booleans are coerced strictly (no `1e3`, no
 * `yes`) so that what the schema accepts is exactly what the sentences promise.
 */

interface EnvOptions {
  /** The environment variable the property is read from. */
  env: string;
  /** One line naming the variable and the rule; `{got}` is replaced by the value given. */
  problem?: string;
  /** The line when a property without default is unset. */
  missing?: string;
  description?: string;
}

/** A whole number in [min, max]. */
export const int = (env: string, fallback: number, min: number, max: number, description?: string) =>
  Type.Integer({
    env,
    default: fallback,
    minimum: min,
    maximum: max,
    description,
    problem: `${env} must be a whole number from ${min} to ${max} (got "{got}")`,
  });

/** A decimal number in [min, max] (no exponent, no sign). */
export const decimal = (env: string, fallback: number, min: number, max: number, description?: string) =>
  Type.Number({
    env,
    default: fallback,
    minimum: min,
    maximum: max,
    description,
    problem: `${env} must be a number from ${min} to ${max} (got "{got}")`,
  });

/** `true` or `false`, nothing else. */
export const bool = (env: string, fallback: boolean, description?: string, problem?: string) =>
  Type.Boolean({
    env,
    default: fallback,
    description,
    problem: problem ?? `${env} must be true or false (got "{got}")`,
  });

/** Text with a default; `pattern`, when given, with the line that refuses the value. */
export const text = (
  env: string,
  fallback: string,
  description?: string,
  pattern?: RegExp,
  problem?: string,
) => Type.String({ env, default: fallback, description, pattern: pattern?.source, problem });

/** Text, null when unset; `pattern`, when given, with the line that refuses the value. */
export const optionalText = (env: string, description?: string, pattern?: RegExp, problem?: string) =>
  Type.Union([pattern ? Type.String({ pattern: pattern.source }) : Type.String(), Type.Null()], {
    env,
    default: null,
    description,
    problem,
  });

/** Text that must be set and have a shape (`missing` when unset, `problem` when misshapen). */
export const requiredText = (env: string, pattern: RegExp, missing: string, problem: string) =>
  Type.String({ env, pattern: pattern.source, missing, problem });

/** One of a few words. */
export const oneOf = <const T extends string[]>(
  env: string,
  values: T,
  fallback: T[number],
  problem: string,
) =>
  Type.Union(values.map((v) => Type.Literal(v)) as TLiteral<T[number]>[], {
    env,
    default: fallback,
    problem,
  });

/** The strict coercion of one trimmed, non-empty value to what its schema holds. */
function coerce(schema: TSchema, raw: string): unknown {
  if (schema[Kind] === 'Integer' && /^\d+$/.test(raw)) return Number(raw);
  if (schema[Kind] === 'Number' && /^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (schema[Kind] === 'Boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** The environment's values by the schema's keys, defaults filled, and one line per refused value. */
export function readEnv<T extends TObject>(
  schema: T,
  env: NodeJS.ProcessEnv,
): { values: Static<T>; problems: string[] } {
  const given: Record<string, string> = {};
  const raw: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties) as [string, TSchema & EnvOptions][]) {
    const value = env[property.env]?.trim();
    if (!value) continue;
    given[key] = value;
    raw[key] = coerce(property, value);
  }
  const values = Value.Default(schema, raw) as Static<T>;
  const refused = new Set<string>();
  for (const error of Value.Errors(schema, values)) refused.add(error.path.split('/')[1] ?? '');
  const problems = [...refused].map((key) => {
    const property = schema.properties[key] as TSchema & EnvOptions;
    // Later rules (a default built from others) see a number's or a word's default, not the
    // refused value; refused text stays, so the rules that join variables still speak of it.
    if (property.default !== null) (values as Record<string, unknown>)[key] = property.default;
    if (given[key] === undefined && property.missing) return property.missing;
    return (property.problem ?? `${property.env} is not valid (got "{got}")`).replace(
      '{got}',
      given[key] ?? '',
    );
  });
  return { values, problems };
}
