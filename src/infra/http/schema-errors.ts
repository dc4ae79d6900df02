import type { TSchema } from '@sinclair/typebox';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/compiler';
import type { ProblemDetailEntry } from './problems.ts';
import { TEXT_PATTERN_MESSAGES } from './text-schemas.ts';

/**
 * The one translator of schema errors into what a client or a hotel reads. Two engines validate
 * here: Ajv checks the routes' requests, TypeBox what is checked without a route (a check-in step's
 * `data` after the order rules, the catalogue file). Both are read into one `SchemaFault` shape and
 * worded by `faultMessage`, so the same bad field says the same thing wherever it is sent. The
 * wording is the routes' (Ajv's sentences, with plainer words for a missing or unknown field, an
 * allowed value and the text patterns).
 */

/** One complaint of a validator, in Ajv's terms (keyword and params). */
export interface SchemaFault {
  /** JSON pointer to the value at fault; for a missing property, to where it belongs. */
  path: string;
  /** The JSON Schema keyword that failed: `type`, `maxLength`, `required`… */
  keyword: string;
  params: Record<string, unknown>;
  /** The validator's own sentence: said only for a keyword not worded here. */
  message?: string | undefined;
  /** The failed schema, when the engine gives it: its `errorMessage` wins (see `faultMessage`). */
  schema?: TSchema | undefined;
}

/** Ajv's error object, as Fastify hands it to the error handler. */
export interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const LIMITS: Record<string, [string, string]> = {
  maxLength: ['more', 'characters'],
  minLength: ['fewer', 'characters'],
  maxItems: ['more', 'items'],
  minItems: ['fewer', 'items'],
  maxProperties: ['more', 'properties'],
  minProperties: ['fewer', 'properties'],
};

/**
 * What a fault says. A schema may word its own faults with `errorMessage` (a sentence, or one per
 * keyword, as ajv-errors spells it), as the catalogue's names do; otherwise the keyword decides.
 */
export function faultMessage(fault: SchemaFault): string {
  const own = fault.schema?.errorMessage as string | Record<string, string> | undefined;
  // A missing property is its parent's fault, whatever the property's own schema says.
  if (typeof own === 'string') {
    if (fault.keyword !== 'required') return own;
  } else if (own?.[fault.keyword]) return own[fault.keyword] as string;
  const p = fault.params;
  switch (fault.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'enum':
    case 'const': {
      const allowed = allowedValues(fault).map((v) => JSON.stringify(v));
      return allowed.length === 1 ? `must be ${allowed[0]}` : `must be one of ${allowed.join(', ')}`;
    }
    case 'pattern':
      return TEXT_PATTERN_MESSAGES[String(p.pattern)] ?? `must match pattern "${p.pattern}"`;
    case 'type':
      return `must be ${p.type}`;
    case 'format':
      return `must match format "${p.format}"`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${p.comparison} ${p.limit}`;
    case 'multipleOf':
      return `must be multiple of ${p.multipleOf}`;
    case 'uniqueItems':
      return `must NOT have duplicate items (items ## ${p.j} and ${p.i} are identical)`;
  }
  const limit = LIMITS[fault.keyword];
  if (limit) return `must NOT have ${limit[0]} than ${p.limit} ${limit[1]}`;
  return fault.message ?? 'is invalid';
}

function allowedValues(fault: SchemaFault): unknown[] {
  return (fault.params.allowedValues ?? [fault.params.allowedValue]) as unknown[];
}

/**
 * Problem `errors[]` entries for faults: one per distinct path and message, in the validator's
 * order. The allowed values of one field (a union of constants fails once per branch) make one entry.
 */
export function faultEntries(faults: Iterable<SchemaFault>): ProblemDetailEntry[] {
  const merged: SchemaFault[] = [];
  for (const fault of faults) {
    const last = merged.at(-1);
    const isChoice = fault.keyword === 'const' || fault.keyword === 'enum';
    if (isChoice && last?.path === fault.path && (last.keyword === 'const' || last.keyword === 'enum')) {
      const values = [...new Set([...allowedValues(last), ...allowedValues(fault)])];
      merged[merged.length - 1] = { ...last, keyword: 'enum', params: { allowedValues: values } };
    } else {
      merged.push(fault);
    }
  }
  const seen = new Set<string>();
  const entries: ProblemDetailEntry[] = [];
  for (const fault of merged) {
    const path = fault.path || '/';
    const message = faultMessage(fault);
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({ path, message });
  }
  return entries;
}

/** Ajv's errors as faults, their paths under `prefix` (`/query`, `/headers`… or '' for a body). */
export function ajvFaults(errors: readonly AjvError[], prefix = ''): SchemaFault[] {
  const faults: SchemaFault[] = [];
  for (const e of errors) {
    // anyOf/oneOf repeat each branch's complaint; the branch messages already say what is wrong.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    let path = prefix + e.instancePath;
    if (e.keyword === 'required') path += `/${String(e.params.missingProperty)}`;
    if (e.keyword === 'additionalProperties') path += `/${String(e.params.additionalProperty)}`;
    faults.push({ path, keyword: e.keyword, params: e.params, message: e.message });
  }
  return faults;
}

const TYPE_NAMES: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.String]: 'string',
  [ValueErrorType.Number]: 'number',
  [ValueErrorType.Integer]: 'integer',
  [ValueErrorType.Boolean]: 'boolean',
  [ValueErrorType.Object]: 'object',
  [ValueErrorType.Array]: 'array',
  [ValueErrorType.Null]: 'null',
};

const BOUNDS: Partial<Record<ValueErrorType, [string, string]>> = {
  [ValueErrorType.NumberMinimum]: ['minimum', '>='],
  [ValueErrorType.IntegerMinimum]: ['minimum', '>='],
  [ValueErrorType.NumberMaximum]: ['maximum', '<='],
  [ValueErrorType.IntegerMaximum]: ['maximum', '<='],
  [ValueErrorType.NumberExclusiveMinimum]: ['exclusiveMinimum', '>'],
  [ValueErrorType.IntegerExclusiveMinimum]: ['exclusiveMinimum', '>'],
  [ValueErrorType.NumberExclusiveMaximum]: ['exclusiveMaximum', '<'],
  [ValueErrorType.IntegerExclusiveMaximum]: ['exclusiveMaximum', '<'],
};

const SIZES: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.StringMaxLength]: 'maxLength',
  [ValueErrorType.StringMinLength]: 'minLength',
  [ValueErrorType.ArrayMaxItems]: 'maxItems',
  [ValueErrorType.ArrayMinItems]: 'minItems',
  [ValueErrorType.ObjectMaxProperties]: 'maxProperties',
  [ValueErrorType.ObjectMinProperties]: 'minProperties',
};

/** One TypeBox error as faults: a failed union as its branches' faults, as Ajv reports an anyOf. */
function* faultsOf(error: ValueError, prefix: string): Generator<SchemaFault> {
  const schema = error.schema;
  const path = prefix + error.path;
  const fault = (keyword: string, params: Record<string, unknown> = {}): SchemaFault => ({
    path,
    keyword,
    params,
    message: error.message,
    schema,
  });
  const bound = BOUNDS[error.type];
  const size = SIZES[error.type];
  const type = TYPE_NAMES[error.type];
  if (type) yield fault('type', { type });
  else if (bound) yield fault(bound[0], { comparison: bound[1], limit: schema[bound[0]] });
  else if (size) yield fault(size, { limit: schema[size] });
  else if (error.type === ValueErrorType.Union && schema.errorMessage === undefined) {
    for (const branch of error.errors) for (const inner of branch) yield* faultsOf(inner, prefix);
  } else yield fault(...keywordOf(error));
}

function keywordOf(error: ValueError): [string, Record<string, unknown>] {
  const schema = error.schema;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return ['required', {}];
    case ValueErrorType.ObjectAdditionalProperties:
      return ['additionalProperties', {}];
    case ValueErrorType.Literal:
      return ['const', { allowedValue: schema.const }];
    case ValueErrorType.StringPattern:
      return ['pattern', { pattern: schema.pattern }];
    case ValueErrorType.StringFormat:
    case ValueErrorType.StringFormatUnknown:
      return ['format', { format: schema.format }];
    case ValueErrorType.NumberMultipleOf:
    case ValueErrorType.IntegerMultipleOf:
      return ['multipleOf', { multipleOf: schema.multipleOf }];
    case ValueErrorType.ArrayUniqueItems:
      return ['uniqueItems', duplicateOf(error.value)];
    case ValueErrorType.Union:
      return ['anyOf', {}];
    default:
      return [String(error.type), {}];
  }
}

/** The pair of equal items Ajv names for `uniqueItems`: the last item that repeats a later one. */
function duplicateOf(value: unknown): { i?: number; j?: number } {
  if (!Array.isArray(value)) return {};
  const keys = value.map((item) => JSON.stringify(item));
  for (let i = keys.length - 1; i >= 0; i--) {
    const j = keys.indexOf(keys[i] as string, i + 1);
    if (j > i) return { i, j };
  }
  return {};
}

/**
 * TypeBox's errors as faults, their paths under `prefix`. TypeBox also checks a missing property
 * against its schema (`undefined` is no string): only `is required` is kept for it, as Ajv says.
 */
export function typeboxFaults(errors: Iterable<ValueError>, prefix = ''): SchemaFault[] {
  const faults = [...errors].flatMap((error) => [...faultsOf(error, prefix)]);
  const missing = new Set(faults.filter((f) => f.keyword === 'required').map((f) => f.path));
  return faults.filter((f) => f.keyword === 'required' || !missing.has(f.path));
}
