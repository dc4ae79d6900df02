import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { corsPolicyFor } from '../../src/infra/http/cors-policy.ts';
import { security } from '../../src/infra/http/security.ts';
import { stay } from '../booking/helpers.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

const SEARCH = '/api/v1/booking/availability/search';
const HOTEL_SITE = 'https://www.hotel.example';
const FRONT_DESK = 'https://frontdesk.example';

const ALLOWED_REQUEST_HEADERS = [
  'authorization',
  'idempotency-key',
  'if-match',
  'x-request-id',
  'content-type',
];
const EXPOSED_RESPONSE_HEADERS = [
  'etag',
  'location',
  'idempotent-replayed',
  'retry-after',
  'x-request-id',
  'ratelimit-policy',
  'ratelimit',
];

const listed = (header: unknown) =>
  String(header ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim());

function preflight(
  inject: (o: object) => Promise<{ statusCode: number; headers: Record<string, unknown> }>,
  url: string,
  origin: string,
  method = 'POST',
) {
  return inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers':
        'authorization, content-type, idempotency-key, if-match, x-request-id',
    },
  });
}

describe('CORS policy by path', () => {
  it('makes booking, check-in, keys, the document and health public; the operator API configured; the rest none', () => {
    for (const path of [
      SEARCH,
      '/api/v1/booking/reservations/R7K3M9Q2X/cancel',
      '/api/v1/checkin/sessions/cks_x/step',
      '/api/v1/checkin/sessions?x=1',
      '/.well-known/jwks.json',
      '/api/v1/openapi.json',
      '/healthz',
      '/readyz',
    ]) {
      assert.equal(corsPolicyFor(path, []).kind, 'public', path);
    }
    for (const path of ['/api/v1/operator', '/api/v1/operator/hotels', '/api/v1/operator/keys?x=1']) {
      const policy = corsPolicyFor(path, [FRONT_DESK]);
      assert.equal(policy.kind, 'operator', path);
      assert.ok(policy.kind === 'operator' && policy.origins.has(FRONT_DESK));
    }
    for (const path of [
      '/docs',
      '/docs/static/swagger-ui.css',
      '/metrics',
      '/api/v1/bookingx',
      '/api/v1/operators',
    ]) {
      assert.equal(corsPolicyFor(path, [FRONT_DESK]).kind, 'none', path);
    }
  });
});

describe('CORS on the public endpoints (any origin, no credentials, no configuration needed)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ hotels: [makeHotel()], env: { LOG_LEVEL: 'silent' } });
  });
  after(() => t.close());

  it('answers a preflight from any origin with 204, the allowed request headers and no credentials', async () => {
    for (const url of [SEARCH, '/api/v1/booking/reservations/R7K3M9Q2X', '/api/v1/checkin/sessions']) {
      const res = await preflight(
        (o) => t.inject(o as never),
        url,
        HOTEL_SITE,
        url.endsWith('X') ? 'PATCH' : 'POST',
      );
      assert.equal(res.statusCode, 204, url);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.equal(res.headers['access-control-allow-credentials'], undefined);
      const methods = listed(res.headers['access-control-allow-methods']);
      for (const method of ['get', 'post', 'patch']) assert.ok(methods.includes(method), method);
      const allowed = listed(res.headers['access-control-allow-headers']);
      for (const name of ALLOWED_REQUEST_HEADERS) assert.ok(allowed.includes(name), `${name} is allowed`);
    }
  });

  it('lets any origin read answers and errors, exposing ETag, Location, replay, retry, request id and rate limits', async () => {
    const res = await t.inject({ method: 'POST', url: SEARCH, headers: { origin: HOTEL_SITE }, payload: {} });
    assert.equal(res.statusCode, 400);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
    assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
    const exposed = listed(res.headers['access-control-expose-headers']);
    for (const name of EXPOSED_RESPONSE_HEADERS) assert.ok(exposed.includes(name), `${name} is exposed`);
  });

  it('covers the keys, the document and the health endpoints', async () => {
    for (const url of ['/.well-known/jwks.json', '/api/v1/openapi.json', '/healthz', '/readyz']) {
      const res = await t.inject({ method: 'GET', url, headers: { origin: HOTEL_SITE } });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['access-control-allow-origin'], '*', url);
    }
  });

  it('gives the docs page and metrics no CORS header: they are not part of the public API', async () => {
    for (const url of ['/docs', '/metrics']) {
      const res = await t.inject({ method: 'GET', url, headers: { origin: HOTEL_SITE } });
      assert.equal(res.headers['access-control-allow-origin'], undefined, url);
      assert.equal(res.headers['cross-origin-resource-policy'], 'same-origin', url);
    }
    const refused = await preflight((o) => t.inject(o as never), '/metrics', HOTEL_SITE, 'GET');
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
    assert.equal(refused.statusCode, 405, 'a known path that does not serve OPTIONS');
  });
});

describe('CORS on the operator API (only the origins in CORS_ORIGINS)', () => {
  /** The real security plugin with stand-in operator routes: the policy alone, no key needed. */
  async function operatorApp(corsOrigins: string[]): Promise<FastifyInstance> {
    const app = Fastify();
    await app.register(security, { corsOrigins });
    app.get('/api/v1/operator/hotels', async () => ({ data: [] }));
    app.delete('/api/v1/operator/keys/:id', async (_request, reply) => reply.code(204).send());
    return app;
  }
  let app: FastifyInstance;
  before(async () => {
    app = await operatorApp([FRONT_DESK, 'https://backoffice.example']);
  });
  after(() => app.close());

  it('answers a preflight from a configured origin, echoing it (never *)', async () => {
    const res = await preflight(
      (o) => app.inject(o as never),
      '/api/v1/operator/keys/key_1',
      FRONT_DESK,
      'DELETE',
    );
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-origin'], FRONT_DESK);
    assert.ok(listed(res.headers.vary).includes('origin'), 'caches keep answers per origin');
    assert.ok(listed(res.headers['access-control-allow-methods']).includes('delete'));
    const allowed = listed(res.headers['access-control-allow-headers']);
    for (const name of ALLOWED_REQUEST_HEADERS) assert.ok(allowed.includes(name), `${name} is allowed`);
    const read = await app.inject({
      method: 'GET',
      url: '/api/v1/operator/hotels',
      headers: { origin: FRONT_DESK },
    });
    assert.equal(read.headers['access-control-allow-origin'], FRONT_DESK);
    assert.equal(read.headers['access-control-allow-credentials'], undefined);
  });

  it('sends no CORS header to an origin not configured', async () => {
    const res = await preflight((o) => app.inject(o as never), '/api/v1/operator/hotels', HOTEL_SITE, 'GET');
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(res.statusCode, 404);
    const read = await app.inject({
      method: 'GET',
      url: '/api/v1/operator/hotels',
      headers: { origin: HOTEL_SITE },
    });
    assert.equal(read.headers['access-control-allow-origin'], undefined);
  });

  it('sends no CORS header to any origin when CORS_ORIGINS is unset', async () => {
    const closed = await operatorApp([]);
    try {
      const res = await preflight(
        (o) => closed.inject(o as never),
        '/api/v1/operator/hotels',
        FRONT_DESK,
        'GET',
      );
      assert.equal(res.headers['access-control-allow-origin'], undefined);
      const read = await closed.inject({
        method: 'GET',
        url: '/api/v1/operator/hotels',
        headers: { origin: FRONT_DESK },
      });
      assert.equal(read.headers['access-control-allow-origin'], undefined);
    } finally {
      await closed.close();
    }
  });

  it('reads CORS_ORIGINS from the environment into the same policy', async (ctx) => {
    const t = await startTestApp(ctx, {
      hotels: [makeHotel()],
      env: { CORS_ORIGINS: `${FRONT_DESK}, https://other.example`, LOG_LEVEL: 'silent' },
    });
    const res = await preflight((o) => t.inject(o as never), '/api/v1/operator/hotels', FRONT_DESK, 'GET');
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-origin'], FRONT_DESK);
    const publicRes = await preflight((o) => t.inject(o as never), SEARCH, 'https://anyone.example');
    assert.equal(publicRes.headers['access-control-allow-origin'], '*', 'the public policy is unchanged');
  });
});

describe('Vary: a handler adds to it, never drops Origin (shared caches keep CORS answers per origin)', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({ CORS_ORIGINS: FRONT_DESK });
  });
  after(() => app.t.close());

  it('keeps Origin beside Accept-Language on a search, Accept on the guest register and invoices', async () => {
    const hotel = app.hotels[0].id;
    const search = await app.t.inject({
      method: 'POST',
      url: SEARCH,
      headers: { origin: HOTEL_SITE, 'accept-language': 'es' },
      payload: { hotelId: hotel, ...stay(app.t, 30, 2), adults: 2 },
    });
    assert.equal(search.statusCode, 200, search.body);
    assert.deepEqual(listed(search.headers.vary), ['origin', 'accept-language']);
    const { key } = await makeKey(app, { scopes: ['guests:identity', 'folios:read'], hotelIds: [hotel] });
    for (const url of [
      `${OPERATOR}/hotels/${hotel}/guest-register?date=${stay(app.t, 1, 1).checkIn}`,
      `${OPERATOR}/hotels/${hotel}/invoices`,
    ]) {
      const res = await app.t.inject({ method: 'GET', url, headers: { ...auth(key), origin: FRONT_DESK } });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.equal(res.headers['access-control-allow-origin'], FRONT_DESK, url);
      assert.deepEqual(listed(res.headers.vary), ['origin', 'accept'], url);
    }
  });
});
