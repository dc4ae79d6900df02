import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ValidatorSelector from '@fastify/ajv-compiler';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { registerSchemaFormats } from './common-schemas.ts';
import { type AjvError, ajvFaults, faultEntries, faultMessage, typeboxFaults } from './schema-errors.ts';

// One wording for both engines: Ajv's own sentence for each keyword the routes' schemas use (the
// public API's answers), and the same sentence for TypeBox's error of that keyword.

const Sample = Type.Object(
  {
    text: Type.String({ minLength: 2, maxLength: 3 }),
    code: Type.String({ pattern: '^[A-Z]+$' }),
    day: Type.String({ format: 'date' }),
    count: Type.Integer({ minimum: 1, maximum: 5 }),
    rate: Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 }),
    list: Type.Array(Type.String(), { minItems: 2, maxItems: 3, uniqueItems: true }),
    tags: Type.Object({}, { minProperties: 1, maxProperties: 1 }),
    flag: Type.Boolean(),
  },
  { additionalProperties: false },
);

const BAD_VALUES: Record<string, unknown>[] = [
  { text: 'a', code: 'a', day: 'soon', count: 0, rate: 0, list: ['x'], tags: {}, flag: 1 },
  {
    text: 'abcd',
    code: 1,
    day: 1,
    count: 6,
    rate: 1,
    list: ['x', 'y', 'x', 'y'],
    tags: { a: 1, b: 2 },
    flag: 'y',
  },
  { text: 1, code: 'A', day: '2027-01-01', count: 1.5, rate: 0.3, list: 'x', tags: [], flag: null },
];

// Ajv as the routes run it (Fastify's compiler, the app's options), and TypeBox with the formats
// the app registers.
type Validate = ((value: unknown) => boolean) & { errors?: AjvError[] | null };
const routeValidator = (schema: unknown) =>
  (ValidatorSelector() as unknown as (e: unknown, o: unknown) => (r: { schema: unknown }) => Validate)(
    {},
    {
      customOptions: {
        allErrors: true,
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: true,
        strict: false,
      },
    },
  )({ schema });
const ajvCheck = routeValidator(Sample);
registerSchemaFormats();
const typeboxCheck = TypeCompiler.Compile(Sample);

describe('the wording of schema errors', () => {
  it('is Ajv’s own sentence for each keyword but those it words more plainly', () => {
    for (const value of BAD_VALUES) {
      assert.equal(ajvCheck(value), false);
      for (const fault of ajvFaults(ajvCheck.errors ?? [])) {
        assert.equal(faultMessage({ ...fault, message: undefined }), fault.message, fault.keyword);
      }
    }
  });

  it('words TypeBox’s errors as Ajv’s, field by field', () => {
    for (const value of BAD_VALUES) {
      ajvCheck(value);
      const fromAjv = faultEntries(ajvFaults(ajvCheck.errors ?? []));
      const fromTypeBox = faultEntries(typeboxFaults(typeboxCheck.Errors(value)));
      const byPath = (entries: typeof fromAjv) =>
        Object.fromEntries(
          [...new Set(entries.map((e) => e.path))].map((p) => [
            p,
            entries
              .filter((e) => e.path === p)
              .map((e) => e.message)
              .sort(),
          ]),
        );
      assert.deepEqual(byPath(fromTypeBox), byPath(fromAjv), JSON.stringify(value));
    }
  });

  it('says what is missing, unknown or allowed in plain words, once per field', () => {
    const Choice = Type.Object(
      { language: Type.Union([Type.Literal('en'), Type.Literal('es')]), name: Type.String() },
      { additionalProperties: false },
    );
    const check = routeValidator(Choice);
    check({ language: 'fr', extra: 1 });
    const expected = [
      { path: '/name', message: 'is required' },
      { path: '/extra', message: 'is not a known field' },
      { path: '/language', message: 'must be one of "en", "es"' },
    ];
    const sorted = (entries: { path?: string }[]) =>
      [...entries].sort((a, b) => String(a.path).localeCompare(String(b.path)));
    assert.deepEqual(sorted(faultEntries(ajvFaults(check.errors ?? []))), sorted(expected));
    const typebox = TypeCompiler.Compile(Choice).Errors({ language: 'fr', extra: 1 });
    assert.deepEqual(sorted(faultEntries(typeboxFaults(typebox))), sorted(expected));
  });
});
