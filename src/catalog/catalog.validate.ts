import { readFile } from 'node:fs/promises';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type ValueError, ValueErrorType } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { registerSchemaFormats } from '../infra/http/common-schemas.ts';
import {
  CatalogFile,
  type Hotel,
  type HotelDef,
  type RatePlanDef,
  type RestrictionDef,
  type RoomPrice,
  type SeasonDef,
  type TaxDef,
} from './catalog.schema.ts';

/** A catalogue that cannot be loaded; `problems` holds one `path: message` entry per fault found. */
export class CatalogError extends Error {
  override name = 'CatalogError';
  readonly problems: string[];

  constructor(message: string, problems: string[] = [], options?: ErrorOptions) {
    super(message, options);
    this.problems = problems;
  }
}

export type LoadedCatalog = { hotels: Hotel[]; warnings: string[] };

// A catalogue is checked at start and by the CLI, before (or without) an app: the 'date' format
// must be known here too.
registerSchemaFormats();

const catalogCheck = TypeCompiler.Compile(CatalogFile);

/** Lines shown in an error message before the rest is summarised; `problems` keeps them all. */
const MESSAGE_LINES = 50;

/**
 * Validates a parsed catalogue (API.md section 6) and returns its hotels with defaults applied.
 * The shape is checked first and, once it holds, the ids and references between them; each stage
 * gathers all its faults into one CatalogError so a hotel can fix its file in one go. Unknown
 * properties are ignored, each with a warning. `source` names the file in the error message.
 */
export function parseCatalog(json: unknown, source?: string): LoadedCatalog {
  const problems = schemaProblems(json);
  if (problems.length > 0) throw invalidCatalog(problems, source);
  const file = json as CatalogFile;
  const warnings = [...unknownProperties(CatalogFile, file, '')];
  problems.push(...crossReferenceProblems(file, warnings));
  if (problems.length > 0) throw invalidCatalog(problems, source);
  return { hotels: file.hotels.map(withDefaults), warnings };
}

/** Reads and validates a catalogue file; every failure is a CatalogError naming the file. */
export async function loadCatalogFile(path: string): Promise<LoadedCatalog> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new CatalogError(`Cannot read catalogue file ${path}: ${reason(cause)}`, [], { cause });
  }
  let json: unknown;
  try {
    // Editors on some systems save JSON with a byte-order mark, which JSON.parse refuses.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (cause) {
    throw new CatalogError(`Catalogue file ${path} is not valid JSON: ${reason(cause)}`, [], { cause });
  }
  return parseCatalog(json, path);
}

function reason(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

function invalidCatalog(problems: string[], source: string | undefined): CatalogError {
  const title = source ? `Catalogue file ${source} is invalid` : 'Invalid catalogue';
  const shown = problems.slice(0, MESSAGE_LINES);
  const more = problems.length - shown.length;
  const lines = more > 0 ? [...shown, `… and ${more} more`] : shown;
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  return new CatalogError(`${title} (${count}):\n${lines.join('\n')}`, problems);
}

// ---------------------------------------------------------------------------------------------
// Schema errors

function schemaProblems(json: unknown): string[] {
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

function isLiteralUnion(schema: TSchema): boolean {
  return Array.isArray(schema.anyOf) && schema.anyOf.every((branch: TSchema) => 'const' in branch);
}

function displayPath(pointer: string): string {
  return pointer === '' ? '(root)' : pointer.slice(1);
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
      return schema.format === 'date'
        ? 'must be a calendar date YYYY-MM-DD'
        : `must be a valid ${schema.format}`;
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`;
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.Union:
      if (isLiteralUnion(schema)) {
        return `must be one of ${schema.anyOf.map((b: TSchema) => JSON.stringify(b.const)).join(', ')}`;
      }
      return 'does not match any allowed form';
    default:
      return error.message;
  }
}

// ---------------------------------------------------------------------------------------------
// Unknown properties

function pointerKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Walks a value that already passed the schema and yields a warning for each property it does not name. */
function* unknownProperties(schema: TSchema, value: unknown, pointer: string): Generator<string> {
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

// ---------------------------------------------------------------------------------------------
// Cross-references

function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

function duplicates(ids: string[], path: (i: number) => string, what: string): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  ids.forEach((id, i) => {
    if (seen.has(id)) problems.push(`${path(i)}: duplicate ${what} ${JSON.stringify(id)}`);
    seen.add(id);
  });
  return problems;
}

function unknownIds(
  ids: string[] | undefined,
  known: Set<string>,
  path: (id: string, i: number) => string,
  what: string,
): string[] {
  return (ids ?? []).flatMap((id, i) =>
    known.has(id) ? [] : [`${path(id, i)}: unknown ${what} ${JSON.stringify(id)}`],
  );
}

function periodProblems(p: { from: string; to: string }, at: string): string[] {
  return p.from > p.to ? [`${at}/to: must not be before from (${p.from})`] : [];
}

/** Faults the schema cannot see: duplicate ids, dangling references, reversed periods, bad zones. */
function crossReferenceProblems(file: CatalogFile, warnings: string[]): string[] {
  const problems = duplicates(
    file.hotels.map((h) => h.id),
    (i) => `hotels/${i}/id`,
    'hotel id',
  );
  file.hotels.forEach((hotel, h) => {
    problems.push(...hotelProblems(hotel, `hotels/${h}`, warnings));
  });
  return problems;
}

function hotelProblems(hotel: HotelDef, at: string, warnings: string[]): string[] {
  const problems: string[] = [];
  if (!isTimeZone(hotel.timezone)) {
    problems.push(`${at}/timezone: unknown IANA time zone ${JSON.stringify(hotel.timezone)}`);
  }
  const roomTypeIds = new Set(hotel.roomTypes.map((rt) => rt.id));
  const ratePlanIds = new Set(hotel.ratePlans.map((rp) => rp.id));
  problems.push(
    ...duplicates(
      hotel.roomTypes.map((rt) => rt.id),
      (i) => `${at}/roomTypes/${i}/id`,
      'room type id',
    ),
    // A room number belongs to one room of the hotel: listed twice, an arrival could be given it twice.
    ...duplicates(
      hotel.roomTypes.flatMap((rt) => rt.roomNumbers ?? []),
      (i) => `${at}/roomTypes/${roomNumberOwner(hotel, i)}`,
      'room number',
    ),
    ...duplicates(
      hotel.ratePlans.map((rp) => rp.id),
      (i) => `${at}/ratePlans/${i}/id`,
      'rate plan id',
    ),
    ...duplicates(
      (hotel.services ?? []).map((s) => s.id),
      (i) => `${at}/services/${i}/id`,
      'service id',
    ),
    ...duplicates(
      (hotel.taxes ?? []).map((t) => t.code),
      (i) => `${at}/taxes/${i}/code`,
      'tax code',
    ),
  );
  hotel.ratePlans.forEach((ratePlan, p) => {
    problems.push(...ratePlanProblems(ratePlan, roomTypeIds, `${at}/ratePlans/${p}`, warnings));
  });
  (hotel.restrictions ?? []).forEach((restriction, r) => {
    problems.push(...restrictionProblems(restriction, roomTypeIds, ratePlanIds, `${at}/restrictions/${r}`));
  });
  return problems;
}

/** `t/roomNumbers/n` of the `i`th room number of the hotel, counted across its room types. */
function roomNumberOwner(hotel: HotelDef, i: number): string {
  let left = i;
  for (const [t, rt] of hotel.roomTypes.entries()) {
    const numbers = rt.roomNumbers ?? [];
    if (left < numbers.length) return `${t}/roomNumbers/${left}`;
    left -= numbers.length;
  }
  return '';
}

function ratePlanProblems(ratePlan: RatePlanDef, roomTypeIds: Set<string>, at: string, warnings: string[]) {
  const priced = Object.keys(ratePlan.prices);
  const problems = unknownIds(priced, roomTypeIds, (id) => `${at}/prices/${pointerKey(id)}`, 'room type');
  (ratePlan.seasons ?? []).forEach((season, s) => {
    const seasonAt = `${at}/seasons/${s}`;
    problems.push(...periodProblems(season, seasonAt));
    for (const roomTypeId of Object.keys(season.prices)) {
      const priceAt = `${seasonAt}/prices/${pointerKey(roomTypeId)}`;
      if (!roomTypeIds.has(roomTypeId)) {
        problems.push(`${priceAt}: unknown room type ${JSON.stringify(roomTypeId)}`);
      } else if (!Object.hasOwn(ratePlan.prices, roomTypeId)) {
        // The plan does not sell this room type, so a seasonal price for it can never apply.
        warnings.push(`${priceAt}: room type not priced by this rate plan, ignored`);
      }
    }
  });
  return problems;
}

function restrictionProblems(
  restriction: RestrictionDef,
  roomTypeIds: Set<string>,
  ratePlanIds: Set<string>,
  at: string,
): string[] {
  const problems = [
    ...periodProblems(restriction, at),
    ...unknownIds(restriction.roomTypes, roomTypeIds, (_, i) => `${at}/roomTypes/${i}`, 'room type'),
    ...unknownIds(restriction.ratePlans, ratePlanIds, (_, i) => `${at}/ratePlans/${i}`, 'rate plan'),
  ];
  const { minStay, maxStay } = restriction;
  if (minStay !== undefined && maxStay !== undefined && minStay > maxStay) {
    problems.push(`${at}/maxStay: must be >= minStay (${minStay})`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Defaults. Objects are rebuilt from known fields only, so ignored properties never reach the rules.

function withDefaults(hotel: HotelDef): Hotel {
  return {
    id: hotel.id,
    name: hotel.name,
    timezone: hotel.timezone,
    currency: hotel.currency,
    checkInTime: hotel.checkInTime ?? '15:00',
    checkOutTime: hotel.checkOutTime ?? '11:00',
    maxDaysBeforeArrival: hotel.maxDaysBeforeArrival ?? null,
    roomTypes: hotel.roomTypes.map((rt) => ({
      id: rt.id,
      name: rt.name,
      count: rt.count,
      maxAdults: rt.maxAdults,
      maxChildren: rt.maxChildren,
      maxOccupancy: rt.maxOccupancy,
      ...(rt.roomNumbers ? { roomNumbers: [...rt.roomNumbers] } : {}),
    })),
    ratePlans: hotel.ratePlans.map((rp) => ({
      id: rp.id,
      name: rp.name,
      refundable: rp.refundable,
      prepayment: rp.prepayment,
      freeCancellationDays: rp.freeCancellationDays ?? 0,
      penaltyNights: rp.penaltyNights ?? 1,
      prices: mapValues(rp.prices, (price) => ({ ...knownPriceFields(price), base: price.base })),
      seasons: (rp.seasons ?? []).map(
        (season): SeasonDef => ({
          from: season.from,
          to: season.to,
          prices: mapValues(season.prices, knownPriceFields),
        }),
      ),
    })),
    services: (hotel.services ?? []).map((s) => ({
      id: s.id,
      name: s.name,
      pricing: s.pricing,
      amount: s.amount,
    })),
    taxes: (hotel.taxes ?? []).map(knownTaxFields),
    restrictions: (hotel.restrictions ?? []).map(knownRestrictionFields),
  };
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}

function pickDefined<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

function knownPriceFields(price: Partial<RoomPrice>): Partial<RoomPrice> {
  return pickDefined(price, ['base', 'includedAdults', 'extraAdult', 'child']);
}

function knownTaxFields(tax: TaxDef): TaxDef {
  return tax.type === 'percent_included'
    ? { code: tax.code, name: tax.name, type: tax.type, rate: tax.rate }
    : { code: tax.code, name: tax.name, type: tax.type, amount: tax.amount };
}

function knownRestrictionFields(r: RestrictionDef): RestrictionDef {
  return {
    from: r.from,
    to: r.to,
    ...pickDefined(r, ['stopSell', 'closedToArrival', 'closedToDeparture', 'minStay', 'maxStay']),
    ...(r.roomTypes ? { roomTypes: [...r.roomTypes] } : {}),
    ...(r.ratePlans ? { ratePlans: [...r.ratePlans] } : {}),
  };
}
