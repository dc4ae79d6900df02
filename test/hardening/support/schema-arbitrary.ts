import fc from 'fast-check';

/** The subset of JSON Schema that TypeBox emits for request bodies. */
type Schema = {
  type?: string;
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
};

/** Arbitraries that replace the generic one at a JSON pointer, to aim values at real catalogue ids. */
export type Overrides = Record<string, fc.Arbitrary<unknown>>;

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 1000;
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (schema.format === 'date') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2040-12-31'), noInvalidDate: true })
      .map(isoDate);
  }
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2040-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  return fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 40)) });
}

/**
 * A fast-check arbitrary of values valid for a TypeBox (JSON) schema: objects with their required
 * keys and any subset of the optional ones, strings within length, pattern and format, integers
 * within bounds. `overrides` swaps in domain values at given JSON pointers (`/guest/email`).
 */
export function arbitraryFor(schema: Schema, overrides: Overrides = {}, path = ''): fc.Arbitrary<unknown> {
  const override = overrides[path];
  if (override) return override;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => arbitraryFor(s, overrides, path)));
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(properties))
        shape[key] = arbitraryFor(sub, overrides, `${path}/${key}`);
      return fc.record(shape, { requiredKeys: schema.required ?? [] });
    }
    case 'array':
      return fc.array(arbitraryFor(schema.items ?? {}, overrides, `${path}/0`), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'string':
      return stringArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue();
  }
}

/** Values that break types and bounds: what a careless or hostile client sends in place of a field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1.5,
    2 ** 31,
    2 ** 53 + 2,
    -(2 ** 63),
    1e308,
    '',
    ' ',
    '0',
    'null',
    '2027-02-30',
    '2027-13-01',
    '0000-00-00',
    '9999-12-31',
    '+275760-09-13',
    '2027-1-1',
    '\u0000',
    '\ud800',
    '<script>alert(1)</script>',
    "'; DROP TABLE reservations; --",
    '../../etc/passwd',
    '%00',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, meant literally
    '${jndi:ldap://x}',
    [],
    {},
    JSON.parse('{"__proto__":{"polluted":true}}'),
    { constructor: { prototype: { polluted: true } } },
  ),
  // Any UTF-16 code units: NULs, controls, lone surrogates. (Not fc.string's 'binary' unit, which
  // spends 1.5 s of every test process building a table of all 1.1 million code points.)
  fc.array(fc.nat(0xffff), { maxLength: 50 }).map((units) => String.fromCharCode(...units)),
  fc.string({ minLength: 300, maxLength: 3000 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 60 }),
  fc.jsonValue({ maxDepth: 3 }),
  // Deeper nesting is sent as raw text (fuzz-harness): fast-check itself recurses to print a value.
  fc.nat(300).map((depth) => nest(depth)),
);

/** `depth` levels of nested arrays and objects. */
export function nest(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Every JSON pointer into a value, so a mutation can pick one. */
export function pointers(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [path];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return [path, ...entries.flatMap(([k, v]) => pointers(v, `${path}/${k}`))];
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function parentOf(
  root: unknown,
  pointer: string,
): { parent: Record<string, unknown> | unknown[]; key: string } | null {
  const parts = pointer.split('/').slice(1);
  const key = parts.pop();
  if (key === undefined) return null;
  let node: unknown = root;
  for (const part of parts) node = (node as Record<string, unknown>)[part];
  return { parent: node as Record<string, unknown>, key };
}

const UNKNOWN_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'isAdmin',
  'id',
  'status',
  'sold',
  'hotelid',
  'Adults',
  '',
];

/**
 * Code units PostgreSQL cannot store (jsonb refuses unpaired surrogates, text refuses U+0000):
 * spliced into an otherwise valid string, they must be refused, never reach a query.
 */
export const UNSTORABLE_UNITS = ['\ud800', '\udbff', '\udc00', '\udfff', '\u0000'] as const;

/** `text` with `unit` spliced in at `at` (modulo its length), so the rest of it still looks valid. */
function splice(text: string, unit: string, at: number): string {
  const i = at % (text.length + 1);
  return text.slice(0, i) + unit + text.slice(i);
}

/**
 * A near-valid value: a valid one with exactly one thing wrong (a field dropped, replaced by a
 * hostile value, an unknown key added, prototype-pollution keys included, or an unstorable code
 * unit spliced into one of its strings or keys).
 */
export function nearValid(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.nat(),
      fc.constantFrom('drop', 'replace', 'add', 'taint'),
      hostileValue,
      fc.constantFrom(...UNKNOWN_KEYS),
      fc.constantFrom(...UNSTORABLE_UNITS),
    )
    .map(([value, pick, mutation, hostile, unknownKey, unit]) => {
      const copy = clone(value);
      const all = pointers(copy);
      const pointer = all[pick % all.length] ?? '';
      if (mutation === 'taint') return taint(copy, all, pick, unit);
      const target = parentOf(copy, pointer);
      if (mutation === 'add' || !target) {
        const containers = all.filter((p) => {
          const found = p === '' ? { value: copy } : { value: get(copy, p) };
          return found.value !== null && typeof found.value === 'object' && !Array.isArray(found.value);
        });
        const where = containers[pick % Math.max(containers.length, 1)] ?? '';
        const node = (where === '' ? copy : get(copy, where)) as Record<string, unknown>;
        if (node && typeof node === 'object')
          Object.defineProperty(node, unknownKey, {
            value: hostile,
            enumerable: true,
            configurable: true,
            writable: true,
          });
        return copy;
      }
      if (mutation === 'drop') {
        if (Array.isArray(target.parent)) target.parent.splice(Number(target.key), 1);
        else delete target.parent[target.key];
      } else {
        (target.parent as Record<string, unknown>)[target.key] = hostile;
      }
      return pointer === '' ? hostile : copy;
    });
}

function get(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointer.split('/').slice(1)) node = (node as Record<string, unknown>)?.[part];
  return node;
}

/** Splices `unit` into one string of `copy` (its value or, with no string value, a key). */
function taint(copy: unknown, all: string[], pick: number, unit: string): unknown {
  if (typeof copy === 'string') return splice(copy, unit, pick);
  const strings = all.filter((p) => p !== '' && typeof get(copy, p) === 'string');
  const pointer = strings[pick % Math.max(strings.length, 1)];
  const target = pointer === undefined ? null : parentOf(copy, pointer);
  if (target) {
    const parent = target.parent as Record<string, unknown>;
    parent[target.key] = splice(String(parent[target.key]), unit, pick);
    return copy;
  }
  if (copy !== null && typeof copy === 'object' && !Array.isArray(copy)) {
    (copy as Record<string, unknown>)[splice('field', unit, pick)] = 1;
  }
  return copy;
}
