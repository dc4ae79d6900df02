import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  assertProblem,
  BOOKING,
  book,
  cancel,
  type Json,
  modify,
  quoteOk,
  requestQuote,
  reserve,
  search,
  startBookingApp,
  stay,
} from './helpers.ts';

// Service endpoints (API.md section 5) as the booking flow relies on them: health, the OpenAPI
// document and its reference page, and X-Request-Id on every response.

const hotel = makeHotel();

let t: TestApp;
before(async () => {
  t = await startBookingApp({ hotels: [hotel] });
});
after(() => t.close());

/** Each booking operation and the statuses API.md says it can answer. */
const BOOKING_OPERATIONS = [
  {
    method: 'post',
    path: '/api/v1/booking/availability/search',
    success: '200',
    statuses: ['400', '409', '422'],
  },
  { method: 'post', path: '/api/v1/booking/quote', success: '201', statuses: ['400', '409', '422'] },
  {
    method: 'post',
    path: '/api/v1/booking/reservations',
    success: '201',
    statuses: ['400', '402', '409', '410', '413', '415', '422'],
  },
  {
    method: 'patch',
    path: '/api/v1/booking/reservations/{reservation}',
    success: '200',
    statuses: ['400', '401', '402', '403', '404', '409', '412', '422'],
  },
  {
    method: 'post',
    path: '/api/v1/booking/reservations/{reservation}/cancel',
    success: '200',
    statuses: ['400', '401', '403', '404', '412'],
  },
] as const;

/** Resolves a local `#/components/schemas/X` reference. */
function resolve(doc: Json, schema: Json): Json {
  if (schema?.$ref) return doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
  return schema;
}

describe('service endpoints', () => {
  it('GET /healthz answers 200 {"status":"ok"}', async () => {
    const res = await t.inject({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  it('GET /readyz answers 200 with the database up and migrated', async () => {
    const res = await t.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 200, res.body);
  });

  it('GET /api/v1/openapi.json is OpenAPI 3.1 describing every booking operation', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const doc = res.json();
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(doc.info.version, '1.0.0');
    assert.equal(typeof doc.info.title, 'string');
    const operationIds = new Set<string>();
    for (const { method, path, success, statuses } of BOOKING_OPERATIONS) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} is documented`);
      assert.match(op.operationId, /^[a-z][A-Za-z]+$/, path);
      assert.ok(!operationIds.has(op.operationId), `operationId ${op.operationId} is unique`);
      operationIds.add(op.operationId);
      assert.ok(op.summary?.length > 0, `${op.operationId} has a summary`);
      assert.ok(
        op.requestBody?.content?.['application/json']?.schema,
        `${op.operationId} documents its body`,
      );
      for (const status of [success, ...statuses]) {
        const response = op.responses[status];
        assert.ok(response, `${op.operationId} documents ${status}`);
        // Errors are documented under the media type they are sent with.
        const mediaType = status === success ? 'application/json' : 'application/problem+json';
        assert.deepEqual(Object.keys(response.content ?? {}), [mediaType], `${op.operationId} ${status}`);
        const schema = resolve(doc, response.content[mediaType].schema);
        assert.ok(schema, `${op.operationId} ${status} has a response schema`);
        if (status === success) {
          assert.ok(schema.properties, `${op.operationId} ${status} is an object schema`);
        } else {
          assert.deepEqual(
            ['type', 'title', 'status', 'code', 'detail', 'requestId'].filter(
              (f) => !schema.required?.includes(f),
            ),
            [],
            `${op.operationId} ${status} is a problem`,
          );
        }
      }
    }
    // The created reservation documents the one-time access token.
    const created = resolve(
      doc,
      doc.paths['/api/v1/booking/reservations'].post.responses['201'].content['application/json'].schema,
    );
    assert.ok(created.required.includes('accessToken'));
    // PATCH and cancel declare the bearer credential.
    for (const { method, path } of BOOKING_OPERATIONS.slice(3)) {
      assert.deepEqual(doc.paths[path][method].security, [{ reservationToken: [] }]);
    }
    assert.equal(doc.components.securitySchemes.reservationToken.scheme, 'bearer');
  });

  it('GET /docs answers the HTML reference (following a redirect)', async () => {
    let res = await t.inject({ method: 'GET', url: '/docs' });
    for (let hops = 0; hops < 3 && res.statusCode >= 300 && res.statusCode < 400; hops++) {
      res = await t.inject({ method: 'GET', url: String(res.headers.location) });
    }
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<html/i);
    // Swagger UI loads the document from `./json` beside the page: the same as /api/v1/openapi.json.
    const init = await t.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    assert.match(init.body, /url: resolveUrl\('\.\/json'\)/, 'the page loads its document');
    const [fromPage, served] = await Promise.all([
      t.inject({ method: 'GET', url: '/docs/json' }),
      t.inject({ method: 'GET', url: '/api/v1/openapi.json' }),
    ]);
    assert.deepEqual(fromPage.json(), served.json(), 'the page loads this service’s document');
  });

  it('sends X-Request-Id on every response, echoing the caller’s', async () => {
    const { checkIn, checkOut } = stay(t, 20, 2);
    const body = {
      hotelId: hotel.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    };
    const quote = await quoteOk(t, body);
    const booked = await book(t, body);
    const requests: Array<[string, () => ReturnType<TestApp['inject']>]> = [
      ['health', () => t.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-1' } })],
      [
        'openapi',
        () =>
          t.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { 'x-request-id': 'trace-1' } }),
      ],
      [
        'search',
        () => search(t, { hotelId: hotel.id, checkIn, checkOut, adults: 2 }, { 'x-request-id': 'trace-1' }),
      ],
      ['quote', () => requestQuote(t, body, { 'x-request-id': 'trace-1' })],
      ['reservation', () => reserve(t, quote.id, {}, { 'x-request-id': 'trace-1' })],
      [
        'modify',
        () =>
          modify(
            t,
            booked.reservation.id,
            booked.token,
            { specialRequests: 'x' },
            { 'x-request-id': 'trace-1' },
          ),
      ],
      ['cancel', () => cancel(t, booked.reservation.id, booked.token, {}, { 'x-request-id': 'trace-1' })],
      ['validation', () => search(t, { hotelId: hotel.id } as never, { 'x-request-id': 'trace-1' })],
      [
        '401',
        () =>
          t.inject({
            method: 'POST',
            url: `${BOOKING}/reservations/R7K3M9Q2X/cancel`,
            headers: { 'x-request-id': 'trace-1' },
          }),
      ],
      ['404', () => t.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'trace-1' } })],
      [
        '405',
        () => t.inject({ method: 'GET', url: `${BOOKING}/quote`, headers: { 'x-request-id': 'trace-1' } }),
      ],
      [
        '413',
        () =>
          t.inject({
            method: 'POST',
            url: `${BOOKING}/quote`,
            payload: JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 1) }),
            headers: { 'content-type': 'application/json', 'x-request-id': 'trace-1' },
          }),
      ],
      [
        '415',
        () =>
          t.inject({
            method: 'POST',
            url: `${BOOKING}/quote`,
            payload: 'x',
            headers: { 'content-type': 'text/plain', 'x-request-id': 'trace-1' },
          }),
      ],
    ];
    for (const [name, send] of requests) {
      const res = await send();
      assert.equal(res.headers['x-request-id'], 'trace-1', name);
      if (res.statusCode >= 400) assert.equal(res.json().requestId, 'trace-1', name);
      // Without one, the service makes one up, different each time.
      const plain = await t.inject({ method: 'GET', url: '/healthz' });
      assert.ok(plain.headers['x-request-id']);
      assert.notEqual(plain.headers['x-request-id'], 'trace-1');
    }
    const a = await t.inject({ method: 'GET', url: '/nowhere' });
    const b = await t.inject({ method: 'GET', url: '/nowhere' });
    assertProblem(a, 404, 'not_found');
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });
});
