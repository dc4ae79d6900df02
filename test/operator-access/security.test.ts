/**
 * The shared security table of the operator API: every route under /api/v1/operator must have an
 * entry here (the last test walks the app's routes), and each entry is checked for no key (401),
 * a malformed or revoked key (401), a key without the route's scope (403), a hotel outside the
 * key's hotels (404) and, as a control, a right key (2xx).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HTTPMethods } from 'fastify';
import { ratePlan } from '../../src/catalog/catalog.fixtures.ts';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { ROLE_SCOPES, ROLES } from '../../src/operator-access/roles.ts';
import { SCOPES, type Scope } from '../../src/operator-access/scopes.ts';
import { arrived, bookStay } from '../booking/reservation-helpers.ts';
import { invoicingHotel } from '../folios/helpers.ts';
import { staffSessionOf } from '../staff/helpers.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from './helpers.ts';

interface RouteCase {
  method: HTTPMethods;
  /** As in the OpenAPI document; `{hotel}` is filled with a hotel, other parameters by `params`. */
  path: string;
  scope: Scope | 'any';
  /** The route names a hotel: one outside the key's hotels must be 404. */
  hotelScoped?: boolean;
  /** The body, or a function making one per call (a new person's e-mail). */
  body?: unknown;
  /** Scopes the command needs beside the route's (giving a role needs the role's scopes). */
  alsoNeeds?: readonly Scope[];
  /** A query string the route needs (without `?`). */
  query?: string;
  /** Path parameters other than the hotel (e.g. a fresh key to revoke, a reservation of `hotel`). */
  params?: (app: OperatorApp, hotel: string) => Promise<Record<string, string>>;
}

const IMPORT = { roomTypeId: 'double', url: 'http://127.0.0.1:9/feed.ics', name: 'nowhere' };
/** A room type imports a URL once and has at most 10 imports (docs/api.md §9.1): spread them. */
let imports = 0;
const importBody = () => ({
  ...IMPORT,
  roomTypeId: ++imports % 2 ? 'double' : 'suite',
  url: `http://127.0.0.1:9/feed-${imports}.ics`,
});

let nextPerson = 0;
const ACCOUNTANT = ROLE_SCOPES.accountant.filter((s) => s !== 'staff:write');

const ROUTES: RouteCase[] = [
  {
    method: 'POST',
    path: '/staff',
    scope: 'staff:write',
    alsoNeeds: ACCOUNTANT,
    body: () => ({ email: `person-${nextPerson++}@example.com`, name: 'Person', role: 'accountant' }),
  },
  { method: 'GET', path: '/staff', scope: 'staff:write' },
  {
    method: 'GET',
    path: '/staff/{id}',
    scope: 'staff:write',
    params: async (app) => ({ id: await makePerson(app) }),
  },
  {
    method: 'PATCH',
    path: '/staff/{id}',
    scope: 'staff:write',
    alsoNeeds: ACCOUNTANT,
    body: { name: 'Renamed' },
    params: async (app) => ({ id: await makePerson(app) }),
  },
  { method: 'POST', path: '/keys', scope: 'keys:write', body: { name: 'made', scopes: ['keys:write'] } },
  { method: 'GET', path: '/keys', scope: 'keys:write' },
  {
    method: 'DELETE',
    path: '/keys/{id}',
    scope: 'keys:write',
    // A key the caller may revoke: it grants nothing the caller lacks.
    params: async (app) => ({ id: (await makeKey(app, { scopes: ['keys:write'] })).id }),
  },
  { method: 'GET', path: '/hotels', scope: 'any' },
  { method: 'GET', path: '/hotels/{hotel}', scope: 'any', hotelScoped: true },
  { method: 'GET', path: '/audit-log', scope: 'audit:read' },
  { method: 'GET', path: '/hotels/{hotel}/reservations', scope: 'reservations:read', hotelScoped: true },
  {
    method: 'GET',
    path: '/hotels/{hotel}/guest-register',
    scope: 'guests:identity',
    hotelScoped: true,
    query: 'date=2027-03-01',
  },
  {
    method: 'GET',
    path: '/hotels/{hotel}/calendar',
    scope: 'inventory:read',
    hotelScoped: true,
    query: 'from=2030-01-01&to=2030-01-02',
  },
  {
    method: 'PATCH',
    path: '/hotels/{hotel}/calendar',
    scope: 'inventory:write',
    hotelScoped: true,
    body: { updates: [{ from: '2030-01-01', to: '2030-01-02', set: { stopSell: false } }] },
  },
  { method: 'GET', path: '/hotels/{hotel}/promotions', scope: 'inventory:write', hotelScoped: true },
  {
    method: 'PUT',
    path: '/hotels/{hotel}/promotions/{code}',
    scope: 'inventory:write',
    hotelScoped: true,
    body: { name: 'Security', discount: { percent: 5 } },
    params: async () => ({ code: 'SEC-PUT' }),
  },
  {
    method: 'DELETE',
    path: '/hotels/{hotel}/promotions/{code}',
    scope: 'inventory:write',
    hotelScoped: true,
    // A code of the hotel checked, saved with the root key, fresh for each call.
    params: async (app, hotel) => {
      const code = `SEC-DEL-${nextPromotion++}`;
      if (app.hotels.some((h) => h.id === hotel))
        await app.t.inject({
          method: 'PUT',
          url: `${OPERATOR}/hotels/${hotel}/promotions/${code}`,
          headers: auth(app.root),
          payload: { name: 'Security', discount: { percent: 5 } },
        });
      return { code };
    },
  },
  // Reservation routes: `hotelScoped` books the reservation in the hotel the check names (and an
  // unknown hotel gets a code that does not exist), so a foreign one must be 404 like a missing one.
  { ...reservationRoute('GET', ''), scope: 'reservations:read' },
  { ...reservationRoute('PATCH', ''), scope: 'reservations:write', body: { internalNotes: 'VIP' } },
  { ...reservationRoute('POST', '/cancel'), scope: 'reservations:write', body: { waiveFee: true } },
  { ...reservationRoute('POST', '/arrive', { daysPass: 1 }), scope: 'reservations:write', body: {} },
  {
    ...reservationRoute('POST', '/depart', { daysPass: 1, arrive: true }),
    scope: 'reservations:write',
    body: {},
  },
  // A no-show is recorded from the day after the check-in date.
  { ...reservationRoute('POST', '/no-show', { daysPass: 2 }), scope: 'reservations:write', body: {} },
  { ...reservationRoute('GET', '/messages'), scope: 'reservations:read' },
  {
    ...reservationRoute('POST', '/messages'),
    scope: 'reservations:write',
    body: { kind: 'booking_confirmation' },
  },
  // Folios and invoices (API.md 13): the hotels invoice (`legal`), each call on a fresh reservation.
  { ...reservationRoute('GET', '/folio'), scope: 'folios:read' },
  {
    ...reservationRoute('POST', '/folio/charges'),
    scope: 'folios:write',
    body: { description: 'Minibar', unitAmount: 450 },
  },
  {
    ...folioRoute('POST', '/reservations/{reservation}/folio/charges/{line}/void'),
    scope: 'folios:write',
    body: {},
  },
  {
    ...reservationRoute('POST', '/folio/payments'),
    scope: 'folios:write',
    body: { amount: 1000, method: 'cash' },
  },
  {
    ...reservationRoute('POST', '/charge-card', { deposit: true }),
    scope: 'folios:write',
    body: { amount: 100, reason: 'no-show fee' },
  },
  { ...reservationRoute('POST', '/invoices'), scope: 'folios:write', body: {} },
  { ...folioRoute('GET', '/invoices/{invoice}'), scope: 'folios:read' },
  { ...folioRoute('GET', '/invoices/{invoice}/pdf'), scope: 'folios:read' },
  {
    ...folioRoute('POST', '/invoices/{invoice}/credit-note'),
    scope: 'folios:write',
    body: { reason: 'wrong' },
  },
  { method: 'GET', path: '/hotels/{hotel}/invoices', scope: 'folios:read', hotelScoped: true },
  { method: 'GET', path: '/hotels/{hotel}/verifactu-records', scope: 'folios:read', hotelScoped: true },
  { method: 'GET', path: '/events', scope: 'reservations:read' },
  {
    method: 'POST',
    path: '/webhook-endpoints',
    scope: 'webhooks:write',
    body: { url: 'http://127.0.0.1:9/hook', events: ['reservation.*'] },
  },
  { method: 'GET', path: '/webhook-endpoints', scope: 'webhooks:write' },
  {
    method: 'DELETE',
    path: '/webhook-endpoints/{id}',
    scope: 'webhooks:write',
    params: async (app) => ({ id: await makeEndpoint(app) }),
  },
  {
    method: 'GET',
    path: '/webhook-endpoints/{id}/deliveries',
    scope: 'webhooks:write',
    params: async (app) => ({ id: await makeEndpoint(app) }),
  },
  {
    method: 'POST',
    path: '/hotels/{hotel}/ical-feeds',
    scope: 'inventory:write',
    hotelScoped: true,
    body: { roomTypeId: 'double' },
  },
  { method: 'GET', path: '/hotels/{hotel}/ical-feeds', scope: 'inventory:read', hotelScoped: true },
  {
    ...channelRoute('/ical-feeds/{id}', 'ical-feeds', { roomTypeId: 'double' }),
    method: 'DELETE',
    scope: 'inventory:write',
  },
  {
    method: 'POST',
    path: '/hotels/{hotel}/ical-imports',
    scope: 'inventory:write',
    hotelScoped: true,
    get body() {
      return importBody();
    },
  },
  { method: 'GET', path: '/hotels/{hotel}/ical-imports', scope: 'inventory:read', hotelScoped: true },
  {
    ...channelRoute('/ical-imports/{id}', 'ical-imports', IMPORT),
    method: 'DELETE',
    scope: 'inventory:write',
  },
  {
    ...channelRoute('/ical-imports/{id}/sync', 'ical-imports', IMPORT),
    method: 'POST',
    scope: 'inventory:write',
  },
];

let nextStay = 0;

/**
 * A route on `/reservations/{reservation}…`, with a fresh reservation of the hotel for every call,
 * each on nights of its own (rooms are few): arriving tomorrow, then the test clock moves `daysPass`
 * days (to the check-in date, or past it), or weeks ahead.
 */
/** A hotel that also sells a deposit plan (API.md 14.2), whose bookings keep a card on file. */
function withDepositPlan(hotel: HotelDef): HotelDef {
  hotel.ratePlans.push(
    ratePlan({ id: 'deposit', name: 'Deposit', prepayment: 'deposit', deposit: { percent: 20 } }),
  );
  return hotel;
}
let nextPromotion = 0;

function reservationRoute(
  method: 'GET' | 'PATCH' | 'POST',
  suffix: string,
  state: { daysPass?: number; arrive?: boolean; deposit?: boolean } = {},
): Omit<RouteCase, 'scope'> {
  return {
    method,
    path: `/reservations/{reservation}${suffix}`,
    hotelScoped: true,
    params: async (app, hotel) => {
      if (!app.hotels.some((h) => h.id === hotel)) return { reservation: 'R0000000X' };
      const fromToday = state.daysPass ? 1 : 30 + (nextStay++ % 300);
      const { code } = await bookStay(app.t, hotel, {
        fromToday,
        nights: 1,
        // A deposit plan keeps a card on file (API.md 14.2): what charge-card charges.
        ...(state.deposit ? { ratePlanId: 'deposit', payment: { token: 'tok_visa' } } : {}),
      });
      if (state.daysPass) app.t.clock.advanceDays(state.daysPass);
      if (state.arrive) await arrived(app.t, app.root, code);
      return { reservation: code };
    },
  };
}

/**
 * A route on a desk charge (`{line}`) or an invoice (`{invoice}`) of a fresh reservation of the
 * hotel checked, made with the root key: a charge, then (for an invoice) an invoice of the folio.
 */
function folioRoute(method: 'GET' | 'POST', path: string): Omit<RouteCase, 'scope'> {
  return {
    method,
    path,
    hotelScoped: true,
    params: async (app, hotel): Promise<Record<string, string>> => {
      if (!app.hotels.some((h) => h.id === hotel))
        return { reservation: 'R0000000X', line: 'fl_none', invoice: 'inv_none' };
      const { code } = await bookStay(app.t, hotel, { fromToday: 30 + (nextStay++ % 300), nights: 1 });
      const made = async (url: string, payload: Record<string, unknown>) => {
        const response = await app.t.inject({
          method: 'POST',
          url: OPERATOR + url,
          headers: auth(app.root),
          payload,
        });
        if (response.statusCode !== 201) throw new Error(`${url}: ${response.body}`);
        return response.json().id as string;
      };
      const line = await made(`/reservations/${code}/folio/charges`, {
        description: 'Minibar',
        unitAmount: 450,
      });
      if (!path.includes('{invoice}')) return { reservation: code, line };
      return { invoice: await made(`/reservations/${code}/invoices`, {}) };
    },
  };
}

/** A route on an iCal feed or import (API.md 11.1) of the hotel checked, made with the root key. */
function channelRoute(
  path: string,
  collection: string,
  body: Record<string, string>,
): Omit<RouteCase, 'scope' | 'method'> {
  return {
    path,
    hotelScoped: true,
    params: async (app, hotel) => {
      if (!app.hotels.some((h) => h.id === hotel)) return { id: 'icf_none' };
      const response = await app.t.inject({
        method: 'POST',
        url: `${OPERATOR}/hotels/${hotel}/${collection}`,
        headers: auth(app.root),
        payload: collection === 'ical-imports' ? importBody() : body,
      });
      if (response.statusCode !== 201) throw new Error(`not created: ${response.body}`);
      return { id: response.json().id };
    },
  };
}

/** Deletes every iCal import of every hotel (with the root key). */
async function clearImports(app: OperatorApp): Promise<void> {
  for (const hotel of app.hotels) {
    const list = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/hotels/${hotel.id}/ical-imports`,
      headers: auth(app.root),
    });
    for (const { id } of list.json().data as Array<{ id: string }>) {
      await app.t.inject({
        method: 'DELETE',
        url: `${OPERATOR}/ical-imports/${id}`,
        headers: auth(app.root),
      });
    }
  }
}

/** An invited accountant at every hotel, made with the root key; answers its id. */
async function makePerson(app: OperatorApp): Promise<string> {
  const response = await app.t.inject({
    method: 'POST',
    url: `${OPERATOR}/staff`,
    headers: auth(app.root),
    payload: { email: `made-${nextPerson++}@example.com`, name: 'Made', role: 'accountant' },
  });
  if (response.statusCode !== 201) throw new Error(`person not made: ${response.body}`);
  return response.json().id;
}

/** An endpoint for every hotel, made with the root key (this app allows a local URL). */
async function makeEndpoint(app: OperatorApp): Promise<string> {
  const response = await app.t.inject({
    method: 'POST',
    url: `${OPERATOR}/webhook-endpoints`,
    headers: auth(app.root),
    payload: { url: 'http://127.0.0.1:9/hook', events: ['checkin.*'] },
  });
  if (response.statusCode !== 201) throw new Error(`endpoint not created: ${response.body}`);
  return response.json().id;
}

describe('operator API security (every route)', () => {
  let app: OperatorApp;
  before(async () => {
    // This file sends many bad keys from one address; the failure limit has its own test.
    // A local webhook URL must be allowed for the webhook routes' control requests.
    app = await startOperatorApp(
      {
        OPERATOR_AUTH_FAILURE_LIMIT: '1000000',
        // Every route signs each role in several times (and books stays): more than a minute's
        // public requests from one address; the per-address limit has its own tests.
        RATE_LIMIT_PER_MINUTE: '0',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_WORKER: 'false',
        // Reservation routes move the test clock days ahead between sign-in and the request.
        STAFF_SESSION_IDLE_MINUTES: String(7 * 24 * 60),
      },
      // Both hotels invoice, so the folio and invoice routes answer (API.md 13).
      [
        withDepositPlan(invoicingHotel({ name: 'Harbour View' })),
        withDepositPlan(invoicingHotel({ name: 'Old Town' })),
      ],
    );
  });
  after(() => app.t.close());

  async function call(route: RouteCase, headers: Record<string, string>, hotel = app.hotels[0].id) {
    let url = OPERATOR + route.path.replace('{hotel}', hotel);
    for (const [name, value] of Object.entries((await route.params?.(app, hotel)) ?? {})) {
      url = url.replace(`{${name}}`, value);
    }
    if (route.query) url += `?${route.query}`;
    const body = typeof route.body === 'function' ? (route.body as () => unknown)() : route.body;
    return app.t.inject({
      method: route.method,
      url,
      headers,
      ...(body ? { payload: body } : {}),
    });
  }

  for (const route of ROUTES) {
    describe(`${route.method} ${route.path}`, () => {
      it('answers 401 with WWW-Authenticate without a key, with a malformed one, or another scheme', async () => {
        for (const headers of [
          {} as Record<string, string>,
          { authorization: 'Bearer ik_short' },
          { authorization: `Basic ${app.root}` },
        ]) {
          const response = await call(route, headers);
          assert.equal(response.statusCode, 401, `${JSON.stringify(headers)}: ${response.body}`);
          assert.equal(response.json().code, 'unauthorized');
          assert.match(String(response.headers['www-authenticate']), /^Bearer realm="innkeep-operator"/);
        }
      });

      it('answers 401 to a revoked key and to an unknown one', async () => {
        const { id, key } = await makeKey(app, { scopes: [...SCOPES] });
        await app.t.inject({ method: 'DELETE', url: `${OPERATOR}/keys/${id}`, headers: auth(app.root) });
        const unknown = `ik_${'a'.repeat(52)}`;
        for (const credential of [key, unknown]) {
          const response = await call(route, auth(credential));
          assert.equal(response.statusCode, 401, response.body);
          assert.match(String(response.headers['www-authenticate']), /^Bearer realm="innkeep-operator"/);
        }
      });

      if (route.scope !== 'any') {
        const scope = route.scope;
        it(`answers 403 to a key with every scope but ${scope}`, async () => {
          const { key } = await makeKey(app, { scopes: SCOPES.filter((s) => s !== scope) });
          const response = await call(route, auth(key));
          assert.equal(response.statusCode, 403, response.body);
          assert.equal(response.json().code, 'forbidden');
        });
      }

      if (route.hotelScoped) {
        it('answers 404 for a hotel outside the key, as for one that does not exist', async () => {
          const { key } = await makeKey(app, { scopes: [...SCOPES], hotelIds: [app.hotels[0].id] });
          const foreign = await call(route, auth(key), app.hotels[1].id);
          const missing = await call(route, auth(key), 'no-such-hotel');
          assert.equal(foreign.statusCode, 404, foreign.body);
          assert.equal(missing.statusCode, 404, missing.body);
          assert.equal(
            foreign.json().detail.replace(app.hotels[1].id, 'X'),
            missing.json().detail.replace('no-such-hotel', 'X'),
          );
          const own = await call(route, auth(key), app.hotels[0].id);
          assert.ok(own.statusCode < 300, own.body);
        });
      }

      it('serves a key with the scope (and only that scope)', async () => {
        const { key } = await makeKey(app, {
          scopes: route.scope === 'any' ? ['inventory:read'] : [route.scope, ...(route.alsoNeeds ?? [])],
        });
        const response = await call(route, auth(key));
        assert.ok(response.statusCode < 300, `${response.statusCode} ${response.body}`);
      });

      it('serves a person’s session exactly when their role has the scope; 404 for a hotel beyond theirs', async () => {
        const origin = new URL(app.t.config.publicBaseUrl).origin;
        for (const role of ROLES) {
          // A room type has at most 10 imports: the calls of this loop must not use them up.
          if (route.path.includes('ical-imports')) await clearImports(app);
          // A fresh session per call: reservation routes move the test clock days ahead.
          const cookie = await staffSessionOf(app.t, `${role}@security.test`, role);
          const response = await call(route, { cookie, origin });
          const has = (s: Scope) => ROLE_SCOPES[role].includes(s);
          if (route.scope !== 'any' && !has(route.scope)) {
            assert.equal(response.statusCode, 403, `${role}: ${response.body}`);
          } else if ((route.alsoNeeds ?? []).every(has)) {
            assert.ok(response.statusCode < 300, `${role}: ${response.statusCode} ${response.body}`);
          }
        }
      });

      if (route.hotelScoped) {
        it('answers 404 to every role’s session for a hotel beyond the person’s, as for one that does not exist', async () => {
          const origin = new URL(app.t.config.publicBaseUrl).origin;
          for (const role of ROLES) {
            // A role without the scope is refused before any hotel is looked at (the test above).
            if (route.scope !== 'any' && !ROLE_SCOPES[role].includes(route.scope)) continue;
            const cookie = await staffSessionOf(app.t, `${role}-limited@security.test`, role, [
              app.hotels[0].id,
            ]);
            const foreign = await call(route, { cookie, origin }, app.hotels[1].id);
            const missing = await call(route, { cookie, origin }, 'no-such-hotel');
            assert.equal(foreign.statusCode, 404, `${role}: ${foreign.body}`);
            assert.equal(missing.statusCode, 404, `${role}: ${missing.body}`);
            assert.equal(
              foreign.json().detail.replace(app.hotels[1].id, 'X'),
              missing.json().detail.replace('no-such-hotel', 'X'),
              role,
            );
          }
        });
      }

      it('answers 401 to a signed-out session, whatever the role', async () => {
        const origin = new URL(app.t.config.publicBaseUrl).origin;
        for (const role of ROLES) {
          const cookie = await staffSessionOf(app.t, `${role}@security.test`, role);
          const out = await app.t.inject({
            method: 'POST',
            url: '/api/v1/auth/sign-out',
            headers: { cookie, origin },
          });
          assert.equal(out.statusCode, 204, out.body);
          const response = await call(route, { cookie, origin });
          assert.equal(response.statusCode, 401, `${role}: ${response.body}`);
          assert.equal(response.json().code, 'unauthorized');
        }
      });
    });
  }

  it("covers every operator route, and the OpenAPI document states each one's security", () => {
    const document = app.t.app.swagger() as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const registered: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!path.startsWith(OPERATOR)) continue;
      for (const [method, operation] of Object.entries(operations)) {
        if (method === 'head') continue;
        registered.push(`${method.toUpperCase()} ${path.slice(OPERATOR.length)}`);
        const entry = ROUTES.find((r) => r.method === method.toUpperCase() && OPERATOR + r.path === path);
        assert.ok(entry, `${method.toUpperCase()} ${path} has no entry in the security table`);
        const scopes = entry.scope === 'any' ? [] : [entry.scope];
        // The scope is in x-scopes: OpenAPI has no scopes for a bearer scheme (Spectral refuses them).
        assert.deepEqual(operation.security, [{ operatorKey: [] }, { staffSession: [] }], `${path} security`);
        assert.deepEqual(operation['x-scopes'], scopes);
        if (entry.scope !== 'any')
          assert.match(String(operation.description), new RegExp(`Scope: \`${entry.scope}\``));
        assert.deepEqual(operation.tags, ['Operator']);
        const responses = operation.responses as Record<string, unknown>;
        for (const status of ['401', '403', '429'])
          assert.ok(responses[status], `${path} documents ${status}`);
      }
    }
    assert.deepEqual(
      registered.sort(),
      ROUTES.map((r) => `${r.method} ${r.path}`).sort(),
      'the table and the registered operator routes are the same set',
    );
  });

  it('refuses to start an operator route that declares no scope', async () => {
    const { default: Fastify } = await import('fastify');
    const { guardOperatorRoutes } = await import('../../src/operator-access/operator-auth.ts');
    const bare = Fastify();
    guardOperatorRoutes(bare, { authenticate: async () => assert.fail(), forget: () => {} });
    assert.throws(() => bare.get('/open', async () => 'no'), /declares no config.operatorScope/);
    await bare.close();
  });
});
