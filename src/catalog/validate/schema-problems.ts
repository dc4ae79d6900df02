import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type ValueError, ValueErrorType } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { isCalendarDate } from '../../calendar/dates.ts';
import { registerSchemaFormats } from '../../infra/http/common-schemas.ts';
import { CatalogFile, PERIOD_DATE_FORMAT } from '../catalog.schema.ts';
import { isMonthDay } from '../recurrence.ts';
import { displayPath, isRecord, pointerKey } from './paths.ts';

/** The shape of a catalogue: schema errors in JSON Schema wording, and unknown properties. */

// A catalogue is checked at start and by the CLI, before (or without) an app: the 'date' format
// must be known here too.
registerSchemaFormats();
FormatRegistry.Set(PERIOD_DATE_FORMAT, (value) => isCalendarDate(value) || isMonthDay(value));

const catalogCheck = TypeCompiler.Compile(CatalogFile);

/** One `path: message` per place where the file breaks the schema. */
export function schemaProblems(json: unknown): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const error of flatten(catalogCheck.Errors(json))) {
    // A missing property also fails its type check; one problem per place is enough.
    if (seen.has(error.path)) continue;
    seen.add(error.path);
    problems.push(`${displayPath(error.path)}: ${describe(error)}`);
  }
  return problems;
}

/**
 * Replaces a failed union of objects by the errors of its closest branch (fewest errors), so a tax
 * missing its `amount` says so instead of "Expected union value". Unions of literals stay whole.
 */
function* flatten(errors: Iterable<ValueError>): Generator<ValueError> {
  for (const error of errors) {
    if (error.type === ValueErrorType.Union && error.schema.localizedName === true) {
      yield* nameErrors(error);
      continue;
    }
    if (error.type !== ValueErrorType.Union || isLiteralUnion(error.schema)) {
      yield error;
      continue;
    }
    const branches = error.errors.map((branch) => [...flatten(branch)]);
    const faults = (branch: ValueError[]) => new Set(branch.map((e) => e.path)).size;
    const closest = branches.reduce<ValueError[] | undefined>(
      (best, branch) => (best === undefined || faults(branch) < faults(best) ? branch : best),
      undefined,
    );
    if (closest?.length) yield* closest;
    else yield error;
  }
}

/**
 * A catalogue name that is neither form: a string's own fault, an object's faults (an unknown
 * language, an empty name), or the union as a whole for anything else (described by `describe`).
 */
function* nameErrors(error: ValueError): Generator<ValueError> {
  const [asString = [], asObject = []] = error.errors.map((branch) => [...branch]);
  if (typeof error.value === 'string' && asString.length > 0) yield* asString;
  else if (isRecord(error.value) && asObject.length > 0) yield* asObject;
  else yield error;
}

function isLiteralUnion(schema: TSchema): boolean {
  return Array.isArray(schema.anyOf) && schema.anyOf.every((branch: TSchema) => 'const' in branch);
}

/** Validation messages in the familiar JSON Schema wording (`must be >= 0`). */
function describe(error: ValueError): string {
  const schema = error.schema;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be >= ${schema.minimum}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `must be <= ${schema.maximum}`;
    case ValueErrorType.IntegerExclusiveMinimum:
    case ValueErrorType.NumberExclusiveMinimum:
      return `must be > ${schema.exclusiveMinimum}`;
    case ValueErrorType.IntegerExclusiveMaximum:
    case ValueErrorType.NumberExclusiveMaximum:
      return `must be < ${schema.exclusiveMaximum}`;
    case ValueErrorType.Integer:
      return 'must be an integer';
    case ValueErrorType.Number:
      return 'must be a number';
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.Boolean:
      return 'must be a boolean';
    case ValueErrorType.Array:
      return 'must be an array';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1
        ? 'must not be empty'
        : `must have at least ${schema.minLength} characters`;
    case ValueErrorType.StringMaxLength:
      return `must have at most ${schema.maxLength} characters`;
    case ValueErrorType.StringPattern:
      return `must match ${schema.pattern}${schema.description ? ` (${schema.description})` : ''}`;
    case ValueErrorType.StringFormat:
    case ValueErrorType.StringFormatUnknown:
      if (schema.format === 'date') return 'must be a calendar date YYYY-MM-DD';
      if (schema.format === PERIOD_DATE_FORMAT) return periodDateMessage(error.value);
      return `must be a valid ${schema.format}`;
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`;
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not a language names may be given in: use "en", "es" or "pt"';
    case ValueErrorType.ObjectMinProperties:
      return 'must give the name in at least one language: "en", "es" or "pt"';
    case ValueErrorType.Union:
      if (schema.localizedName === true) {
        return 'must be a name ("Double Room") or names by language ({ "en": "Double Room", "es": "Habitación doble", "pt": "Quarto duplo" })';
      }
      if (isLiteralUnion(schema)) {
        return `must be one of ${schema.anyOf.map((b: TSchema) => JSON.stringify(b.const)).join(', ')}`;
      }
      return 'does not match any allowed form';
    default:
      return error.message;
  }
}

/** Says which of the two forms of a period's end was meant, when it can tell. */
function periodDateMessage(value: unknown): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return 'must be a calendar date YYYY-MM-DD';
  }
  if (typeof value === 'string' && value.startsWith('--')) {
    return 'must be a yearly month-day --MM-DD on the calendar (--02-29 is allowed: leap years only)';
  }
  return 'must be a calendar date YYYY-MM-DD, or a month-day --MM-DD for every year';
}

/** Walks a value that already passed the schema and yields a warning for each property it does not name. */
export function* unknownProperties(schema: TSchema, value: unknown, pointer: string): Generator<string> {
  if (Array.isArray(schema.anyOf)) {
    const branch = schema.anyOf.find((b: TSchema) => Value.Check(b, value));
    if (branch) yield* unknownProperties(branch, value, pointer);
    return;
  }
  if (schema.type === 'array' && Array.isArray(value) && schema.items) {
    for (const [i, item] of value.entries()) yield* unknownProperties(schema.items, item, `${pointer}/${i}`);
    return;
  }
  if (schema.type !== 'object' || !isRecord(value)) return;
  const valueSchema: TSchema | undefined = schema.patternProperties
    ? Object.values(schema.patternProperties as Record<string, TSchema>)[0]
    : undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPointer = `${pointer}/${pointerKey(key)}`;
    const childSchema: TSchema | undefined = schema.properties?.[key] ?? valueSchema;
    if (childSchema) yield* unknownProperties(childSchema, child, childPointer);
    else yield `${displayPath(childPointer)}: unknown property, ignored`;
  }
}
