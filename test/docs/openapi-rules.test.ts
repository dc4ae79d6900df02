/**
 * Issue 41 item 2: the OpenAPI document must say every answer and every rule the service enforces
 * that JSON Schema can say, so a tool generating requests from it (Schemathesis) finds no
 * status-code, schema or data-acceptance mismatch. Schemathesis cannot run here (no PyPI), so this
 * walks the generated document instead: (a) every operation lists the answers the HTTP layer gives
 * every route of its kind, (b) every string of every request body refuses U+0000 in its schema
 * (checked by generating strings from each pattern and slipping a U+0000 in), every pattern
 * compiling in the engines that read it, (c) the AlpineBits form is closed, with its required
 * fields and actions; and a property test sends bodies generated from the document's own request
 * schemas: never a 5xx, and what the document refuses the service refuses too.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { buildOpenApiDocument } from '../../scripts/openapi-document.ts';
import { ACTIONS } from '../../src/channels/alpinebits/actions.ts';
import { RATE_LIMIT_EXEMPT } from '../../src/infra/http/rate-limit.ts';
import { addDays, localToday } from '../booking/helpers.ts';
import { ALPINEBITS, basic, multipart, ota } from '../channels/alpinebits-client.ts';
import { arbitraryFor } from '../hardening/support/schema-arbitrary.ts';
import { makeHotel, startTestApp } from '../helpers/test-app.ts';
import { testFileEmbeddedDatabase } from '../helpers/test-database.ts';
import { startOperatorApp } from '../operator-access/helpers.ts';

type Schema = Record<string, unknown> & {
  type?: string | string[];
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  required?: string[];
};
type Operation = {
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
  security?: unknown[];
};
type Doc = { paths: Record<string, Record<string, Operation>> };

function* operations(doc: Doc): Generator<[string, string, Operation]> {
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, operation] of Object.entries(item)) yield [path, method, operation];
}

/** Every string schema under `schema`, with its JSON pointer. */
function* strings(schema: Schema, path = ''): Generator<[string, Schema]> {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string')) yield [path || '/', schema];
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    yield* strings(branch, path);
  for (const [key, sub] of Object.entries(schema.properties ?? {})) yield* strings(sub, `${path}/${key}`);
  if (schema.items) yield* strings(schema.items, `${path}/0`);
  if (typeof schema.additionalProperties === 'object')
    yield* strings(schema.additionalProperties, `${path}/*`);
}

const FORMATS_WITHOUT_NUL = new Set(['date', 'date-time', 'email', 'uri']);

describe('the OpenAPI document says what the service enforces', () => {
  let doc: Doc;
  before(async () => {
    doc = (await buildOpenApiDocument(await testFileEmbeddedDatabase())) as Doc;
  });

  it('(a) lists every answer the HTTP layer can give each operation', () => {
    const missing: string[] = [];
    for (const [path, method, operation] of operations(doc)) {
      const listed = new Set(Object.keys(operation.responses));
      const expected = ['500', '503'];
      if (!RATE_LIMIT_EXEMPT.has(path)) expected.push('429');
      if (operation.requestBody) expected.push('400', '413', '415');
      if (operation.parameters?.some((p) => p.name === 'idempotency-key')) expected.push('409', '422');
      if ((operation.security ?? []).length > 0) expected.push('401');
      if (path.includes('{') && !listed.has('400')) expected.push('404');
      if (operation.parameters?.some((p) => p.in === 'query' || p.in === 'path')) expected.push('400');
      for (const status of expected)
        if (!listed.has(status)) missing.push(`${method.toUpperCase()} ${path}: ${status}`);
    }
    assert.deepEqual(missing, []);
    const alpineBits = doc.paths['/api/v1/alpinebits']?.post as Operation;
    for (const status of ['200', '400', '401', '403', '409', '413', '422', '429', '500', '503'])
      assert.ok(alpineBits.responses[status], `AlpineBits lists ${status}`);
  });

  it('(b) every string of every request body refuses U+0000, in a pattern every engine compiles', () => {
    const faults: string[] = [];
    for (const [path, method, operation] of operations(doc)) {
      const bodies = Object.values(operation.requestBody?.content ?? {}).map((c) => c.schema);
      const key = operation.parameters?.find((p) => p.name === 'idempotency-key')?.schema;
      for (const [pointer, schema] of [
        ...bodies.flatMap((b) => [...strings(b)]),
        ...(key ? [['/idempotency-key', key] as [string, Schema]] : []),
      ]) {
        const where = `${method.toUpperCase()} ${path} ${pointer}`;
        if (schema.enum || schema.const !== undefined) continue;
        if (!schema.pattern) {
          if (!FORMATS_WITHOUT_NUL.has(String(schema.format))) faults.push(`${where}: no pattern or format`);
          continue;
        }
        // Ajv (unicode mode), TypeBox (no flag) and fast-check must all read it.
        const unicode = new RegExp(schema.pattern, 'u');
        const plain = new RegExp(schema.pattern);
        const samples = fc.sample(
          fc.stringMatching(plain).filter((s) => s.length <= Number(schema.maxLength ?? 1e9)),
          { numRuns: 20, seed: 41 },
        );
        for (const sample of samples) {
          if (!unicode.test(sample)) continue; // a pair the generator split: not a sample of the document's
          for (const at of [0, sample.length >> 1, sample.length]) {
            const withNul = `${sample.slice(0, at)}\u0000${sample.slice(at)}`;
            if (unicode.test(withNul) || plain.test(withNul))
              faults.push(`${where}: ${JSON.stringify(withNul)} matches ${schema.pattern.slice(0, 60)}`);
          }
        }
      }
    }
    assert.deepEqual([...new Set(faults)], []);
  });

  it('(c) the AlpineBits form: action and request required, the actions the service knows, no other field', () => {
    const form = doc.paths['/api/v1/alpinebits']?.post?.requestBody?.content['multipart/form-data']
      ?.schema as Schema;
    assert.deepEqual([...(form.required ?? [])].sort(), ['action', 'request']);
    assert.equal(form.additionalProperties, false);
    assert.deepEqual(
      form.properties?.action?.enum,
      ACTIONS.map((a) => a.action),
    );
    assert.ok(form.properties?.request?.pattern, 'request refuses U+0000 and blank');
    const email = doc.paths['/api/v1/booking/reservations']?.post?.requestBody?.content['application/json']
      ?.schema.properties?.guest?.properties?.email as Schema;
    assert.equal(new RegExp(String(email.pattern), 'u').test('ana@localhost'), false, 'a dot in the domain');
    assert.equal(new RegExp(String(email.pattern), 'u').test('ana@example.com'), true);
  });

  it('bodies generated from the document: never a 5xx, and what the document refuses the service refuses', async (t) => {
    const hotel = makeHotel();
    const app = await startTestApp(t, { hotels: [hotel], env: { LOG_LEVEL: 'silent' } });
    const hotelId = hotel.id;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const path = '/api/v1/booking/availability/search';
    const schema = doc.paths[path]?.post?.requestBody?.content['application/json']?.schema as Schema;
    const validate = ajv.compile(schema);
    const today = localToday(app);
    const date = fc.integer({ min: -2, max: 40 }).map((n) => addDays(today, n));
    const valid = arbitraryFor(schema as never, {
      '/hotelId': fc.constantFrom(hotelId, 'nowhere'),
      '/checkIn': date,
      '/checkOut': date,
    });
    // Near-valid: one string field given text the name rules or storage refuse.
    const refused = fc.constantFrom('\u0000', '\u200B', '\u{E0041}', '\uD800', '\u3164');
    const body = fc.oneof(
      valid,
      fc.tuple(valid, refused).map(([b, bad]) => ({ ...(b as object), hotelId: `${hotelId}${bad}` })),
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const res = await app.inject({ method: 'POST', url: path, payload: payload as object });
        assert.ok(res.statusCode < 500, `${JSON.stringify(payload)} → ${res.statusCode} ${res.body}`);
        if (!validate(payload)) {
          assert.equal(res.statusCode, 400, `the document refuses ${JSON.stringify(payload)}: ${res.body}`);
          assert.equal(res.json().code, 'validation_error');
        }
      }),
      { numRuns: 60, seed: Number(process.env.FUZZ_SEED ?? 41) },
    );
  });

  it('the Idempotency-Key pattern is the rule the service applies, worded for people', async (t) => {
    const app = await startTestApp(t, { hotels: [makeHotel()], env: { LOG_LEVEL: 'silent' } });
    const key = doc.paths['/api/v1/booking/quote']?.post?.parameters?.find(
      (p) => p.name === 'idempotency-key',
    );
    const pattern = new RegExp(String(key?.schema?.pattern), 'u');
    for (const value of ['"', '"unterminated', '"a"b"', '""', 'k-1', '"k-1"', '"a\\"b"']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/booking/quote',
        headers: { 'idempotency-key': value },
        // A body the schema takes: headers are checked after it.
        payload: {
          hotelId: 'nowhere',
          checkIn: '2030-01-01',
          checkOut: '2030-01-02',
          adults: 1,
          roomTypeId: 'x',
          ratePlanId: 'y',
        },
      });
      const refusedKey = res.statusCode === 400 && res.body.includes('/headers/idempotency-key');
      assert.equal(refusedKey, !pattern.test(value), `${value}: ${res.body}`);
      if (refusedKey) assert.doesNotMatch(res.body, /must match pattern/, res.body);
    }
  });

  it('(c) the AlpineBits endpoint refuses exactly the forms its schema refuses', async () => {
    const app = await startOperatorApp();
    try {
      const form = doc.paths['/api/v1/alpinebits']?.post?.requestBody?.content['multipart/form-data']?.schema;
      const ajv = new Ajv2020({ strict: false });
      const validate = ajv.compile(form as object);
      const ping = ota('OTA_PingRQ', '<EchoData>x</EchoData>');
      const forms: Array<Array<[string, string]>> = [
        [
          ['action', 'OTA_Ping:Handshaking'],
          ['request', ping],
        ],
        [['action', 'OTA_Ping:Handshaking']],
        [
          ['action', 'OTA_Ping:Handshaking'],
          ['request', ' \n '],
        ],
        [
          ['action', 'OTA_Ping:Handshaking'],
          ['request', `${ping}\u0000`],
        ],
        [
          ['action', 'OTA_Ping:Handshaking'],
          ['request', ping],
          ['extra', 'x'],
        ],
        [
          ['action', 'OTA_Nothing:Here'],
          ['request', ping],
        ],
        [['request', ping]],
      ];
      for (const fields of forms) {
        const { body, contentType } = multipart(fields);
        const res = await app.t.inject({
          method: 'POST',
          url: ALPINEBITS,
          headers: {
            ...basic(app.root),
            'content-type': contentType,
            'x-alpinebits-clientprotocolversion': '2022-10',
          },
          payload: body,
        });
        const accepted = validate(Object.fromEntries(fields));
        assert.equal(res.statusCode, accepted ? 200 : 400, `${JSON.stringify(fields)}: ${res.body}`);
        if (!accepted) assert.match(res.body, /^ERROR:/);
      }
    } finally {
      await app.t.close();
    }
  });
});
