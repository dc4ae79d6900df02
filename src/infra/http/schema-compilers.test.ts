import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Type } from '@sinclair/typebox';
import { Money, registerSchemaFormats } from './common-schemas.ts';
import { type CompilerFactory, schemaCompilers, serializerSchema } from './schema-compilers.ts';

// Response serialisers are compiled from `serializerSchema`s: the same text as from the documented
// schema for every value that matches it, without fast-json-stringify's per-value branch choice.

/** As reservation.schemas.ts's CancellationPolicy: a shared schema with a nullable instant. */
const CancellationPolicy = Type.Object(
  {
    refundable: Type.Boolean(),
    freeCancellationUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    penalty: Type.Ref(Money),
  },
  { $id: 'CancellationPolicy' },
);

const Sample = Type.Object({
  when: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  count: Type.Union([Type.Null(), Type.Integer()]),
  kind: Type.Union([Type.Literal('deposit'), Type.Literal('balance')]),
  text: Type.Union([Type.String(), Type.Null()], { description: 'kept' }),
  either: Type.Union([Type.String(), Type.Integer()]),
  list: Type.Array(Type.Union([Type.Literal('a'), Type.Literal('b')])),
  policy: Type.Ref(CancellationPolicy),
});

const VALUES = [
  {
    when: '2027-02-27T00:00:00Z',
    count: 3,
    kind: 'deposit',
    text: 'a "quoted" \u2028 text',
    either: 'x',
    list: ['a', 'b'],
  },
  { when: null, count: null, kind: 'balance', text: null, either: 7, list: [] },
].map((value, i) => ({
  ...value,
  policy: {
    refundable: i === 0,
    freeCancellationUntil: i === 0 ? '2027-02-25T00:00:00Z' : null,
    penalty: { amount: i * 100, currency: 'EUR' },
  },
}));

describe('serializerSchema', () => {
  registerSchemaFormats();
  type Serialize = (value: unknown) => string;
  const compile = (factory: unknown) =>
    (factory as CompilerFactory)(
      { CancellationPolicy, Money },
      {},
    )({ schema: Sample, httpPart: 'response' }) as Serialize;
  // Fastify's own compiler on the documented schema, and the app's (schemaCompilers) on its copy.
  const documented = compile(SerializerSelector());
  const lean = compile(schemaCompilers().buildSerializer);

  it('writes the same text as the documented schema for every value it allows', () => {
    for (const value of VALUES) assert.equal(lean(value), documented(value));
  });

  it('replaces only the unions that need no choice, and leaves the documented schema as it was', () => {
    const before = JSON.stringify(Sample);
    const leaned = serializerSchema(Sample) as unknown as {
      properties: Record<string, Record<string, unknown>>;
    };
    assert.equal(JSON.stringify(Sample), before);
    assert.deepEqual(leaned.properties.when, { format: 'date-time', type: ['string', 'null'] });
    assert.deepEqual(leaned.properties.count, { type: ['integer', 'null'] });
    assert.deepEqual(leaned.properties.kind, { type: 'string' });
    assert.deepEqual(leaned.properties.text, { description: 'kept', type: ['string', 'null'] });
    assert.ok(Array.isArray(leaned.properties.either?.anyOf), 'a choice between two scalars stays');
    assert.equal(serializerSchema(Sample), leaned, 'the same copy each time');
  });
});
