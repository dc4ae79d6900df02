import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import {
  DESKTOP,
  launchChromium,
  openPage,
  type PagesApp,
  seriousA11yViolations,
  skipWithoutChromium,
  startPagesApp,
} from '../helpers/browser.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';

// A hotel's own website on another origin books through the public API from the guest's browser
// (API.md section 1, "browsers"): real CORS in Chromium, preflights included, not just headers
// checked by inject. The operator API stays closed to origins not in CORS_ORIGINS.

/**
 * The hotel website's script: search → quote → reservation (with Idempotency-Key), a replay, a
 * change with Authorization and If-Match, then a read of the operator API with a key. It reports
 * what the browser let it read into <output>; every request is cross-origin.
 */
const SITE_SCRIPT = `
const params = new URLSearchParams(location.search);
const api = params.get('api') + '/api/v1';
const out = document.getElementById('result');
const report = (result) => { out.textContent = JSON.stringify(result); out.dataset.done = 'true'; };
async function call(method, path, { body, headers = {} } = {}) {
  const response = await fetch(api + path, {
    method,
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const h = (name) => response.headers.get(name);
  return {
    status: response.status,
    body: await response.json(),
    headers: {
      location: h('location'), etag: h('etag'), requestId: h('x-request-id'),
      replayed: h('idempotent-replayed'), contentType: h('content-type'),
    },
  };
}
async function book() {
  const stay = { hotelId: params.get('hotel'), checkIn: params.get('checkIn'), checkOut: params.get('checkOut'), adults: 2 };
  const search = await call('POST', '/booking/availability/search', { body: stay, headers: { 'x-request-id': 'site-search-1' } });
  const offer = search.body.offers.find((o) => o.roomType.id === 'double' && o.ratePlan.id === 'flex');
  const quote = await call('POST', '/booking/quote', {
    body: { ...stay, roomTypeId: offer.roomType.id, ratePlanId: offer.ratePlan.id },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  const key = crypto.randomUUID();
  const reservationBody = { quoteId: quote.body.id, guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' } };
  const reservation = await call('POST', '/booking/reservations', { body: reservationBody, headers: { 'idempotency-key': key } });
  const replay = await call('POST', '/booking/reservations', { body: reservationBody, headers: { 'idempotency-key': key } });
  const auth = { authorization: 'Bearer ' + reservation.body.accessToken };
  const path = '/booking/reservations/' + reservation.body.id;
  const change = await call('PATCH', path, {
    body: { specialRequests: 'late arrival' },
    headers: { ...auth, 'if-match': reservation.headers.etag },
  });
  const stale = await call('PATCH', path, {
    body: { specialRequests: 'even later' },
    headers: { ...auth, 'if-match': reservation.headers.etag },
  });
  let operator;
  try {
    const hotels = await call('GET', '/operator/hotels', { headers: { authorization: 'Bearer ' + params.get('key') } });
    operator = { read: true, status: hotels.status, ids: hotels.body.data.map((h) => h.id) };
  } catch (error) {
    operator = { read: false, error: error.name };
  }
  return {
    search: { status: search.status, requestId: search.headers.requestId, offers: search.body.offers.length },
    quote: { status: quote.status, requestId: quote.headers.requestId },
    reservation: { status: reservation.status, id: reservation.body.id, ...reservation.headers },
    replay: { status: replay.status, id: replay.body.id, replayed: replay.headers.replayed },
    change: { status: change.status, etag: change.headers.etag, specialRequests: change.body.specialRequests },
    stale: { status: stale.status, code: stale.body.code, contentType: stale.headers.contentType },
    operator,
  };
}
book().then(report, (error) => report({ failed: String(error) }));
`;

const SITE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour View – book direct</title></head>
<body><main><h1>Harbour View</h1><output id="result" aria-live="polite"></output></main>
<script type="module" src="/site.js"></script></body></html>`;

/** A plain web server on its own port: another origin than the service's. */
async function startSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/site.js')) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(SITE_SCRIPT);
    } else if (request.url?.startsWith('/?') || request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SITE_PAGE);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const hotel = makeHotel({ name: 'Harbour View' });

describe('booking from another origin in a browser', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  let hotelSite: { origin: string; server: Server };
  let backOffice: { origin: string; server: Server };
  let key: string;
  before(async () => {
    [hotelSite, backOffice] = await Promise.all([startSite(), startSite()]);
    // Only the back office may call the operator API from a browser; the hotel's site may not.
    [app, browser] = await Promise.all([
      startPagesApp([hotel], { CORS_ORIGINS: backOffice.origin }),
      launchChromium(),
    ]);
    ({ secret: key } = await app.t.db.transaction((tx) =>
      insertCliKey(tx, operatorKeyHasher(app.t.config.dataEncryptionKey as Buffer), {
        name: 'website test',
        scopes: ['reservations:read'],
        hotelIds: [hotel.id],
      }),
    ));
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
    hotelSite?.server.close();
    backOffice?.server.close();
  });

  async function runSite(origin: string) {
    const { page, errors } = await openPage(browser, origin, DESKTOP);
    const apiRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(app.baseUrl)) apiRequests.push(`${request.method()} ${request.url()}`);
    });
    const query = new URLSearchParams({
      api: app.baseUrl,
      hotel: hotel.id,
      checkIn: daysFromNow(40),
      checkOut: daysFromNow(42),
      key,
    });
    await page.goto(`${origin}/?${query}`);
    await page.locator('#result[data-done="true"]').waitFor();
    const result = JSON.parse(await page.locator('#result').innerText());
    assert.equal(result.failed, undefined, result.failed);
    assert.deepEqual(await seriousA11yViolations(page), []);
    return { result, errors, apiRequests };
  }

  it('books a room from the hotel’s own website: search, quote, reservation, replay, change', async () => {
    assert.notEqual(new URL(hotelSite.origin).port, new URL(app.baseUrl).port, 'two origins');
    const { result } = await runSite(hotelSite.origin);

    assert.equal(result.search.status, 200);
    assert.ok(result.search.offers > 0);
    assert.equal(result.search.requestId, 'site-search-1', 'X-Request-Id is sent and read cross-origin');
    assert.equal(result.quote.status, 201);
    assert.ok(result.quote.requestId);

    // The exposed headers of the contract are readable by the other origin's script.
    assert.equal(result.reservation.status, 201);
    assert.match(result.reservation.id, /^[0-9A-Z]{6,}$/);
    assert.match(
      result.reservation.location,
      new RegExp(`/api/v1/booking/reservations/${result.reservation.id}$`),
    );
    assert.match(result.reservation.etag, /^"\d+"$/);
    assert.ok(result.reservation.requestId);
    assert.deepEqual(result.replay, { status: 201, id: result.reservation.id, replayed: 'true' });

    // Authorization and If-Match went through a preflight; the new ETag and a 412 are readable.
    assert.equal(result.change.status, 200);
    assert.equal(result.change.specialRequests, 'late arrival');
    assert.notEqual(result.change.etag, result.reservation.etag);
    assert.deepEqual(result.stale, {
      status: 412,
      code: 'precondition_failed',
      contentType: 'application/problem+json; charset=utf-8',
    });

    // Chromium asked first (preflight) for the requests with non-simple headers or methods.
    const preflights = app.t.logs
      .join('')
      .split('\n')
      .filter((line) => line.includes('"method":"OPTIONS"'))
      .map((line) => (JSON.parse(line) as { req: { url: string } }).req.url);
    for (const path of ['/api/v1/booking/quote', `/api/v1/booking/reservations/${result.reservation.id}`]) {
      assert.ok(preflights.includes(path), `a preflight for ${path} (${preflights.join(', ')})`);
    }

    // The booking is real.
    const rows = await app.t.db.query<{ code: string }>('SELECT code FROM reservations WHERE code = $1', [
      result.reservation.id,
    ]);
    assert.equal(rows.rows.length, 1);

    // The operator API refuses to share its answer with an origin not in CORS_ORIGINS: the
    // browser blocks the read (a TypeError), whatever the key.
    assert.deepEqual(result.operator, { read: false, error: 'TypeError' });
  });

  it('lets an origin listed in CORS_ORIGINS read the operator API', async () => {
    const { result } = await runSite(backOffice.origin);
    assert.equal(result.reservation.status, 201, 'the public API answers this origin too');
    assert.deepEqual(result.operator, { read: true, status: 200, ids: [hotel.id] });
  });
});
