import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type ValueError, ValueErrorType } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { isCalendarDate } from '../../dates/dates.ts';
import { registerSchemaFormats } from '../../infra/http/common-schemas.ts';
import { faultEntries, faultMessage, typeboxFaults } from '../../infra/http/schema-errors.ts';
import { CatalogFile, PERIOD_DATE_FORMAT } from '../catalog.schema.ts';
import { isMonthDay } from '../recurrence.ts';
import { displayPath, isRecord, pointerKey } from './paths.ts';

/** The shape of a catalogue: schema errors (worded by `infra/http/schema-errors.ts`), and unknown properties. */

// A catalogue is checked at start and by the CLI, before (or without) an app: the 'date' format
// must be known here too.
registerSchemaFormats();
FormatRegistry.Set(PERIOD_DATE_FORMAT, (value) => isCalendarDate(value) || isMonthDay(value));

const catalogCheck = TypeCompiler.Compile(CatalogFile);

/** One `path: message` per fault where the file breaks the schema, worded as the API words them. */
export function schemaProblems(json: unknown): string[] {
  const entries = faultEntries(typeboxFaults(flatten(catalogCheck.Errors(json))));
  return entries.map(
    (entry) => `${displayPath(entry.path === '/' ? '' : (entry.path ?? ''))}: ${entry.message}`,
  );
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
    else
      yield `${displayPath(childPointer)}: ${faultMessage({ path: childPointer, keyword: 'additionalProperties', params: {} })}, ignored`;
  }
}
