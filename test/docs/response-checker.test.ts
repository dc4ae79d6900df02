import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, BOOKING, bearer, book, GUEST, stay } from '../booking/helpers.ts';
import { openApiResponseChecker } from '../helpers/openapi-responses.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

// The suite's answers are checked against the OpenAPI document; this proves the check can fail.
describe('the OpenAPI response check of the test suite', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ hotels: [makeHotel()], env: { LOG_LEVEL: 'silent' } });
    await t.app.ready();
  });
  after(() => t.close());

  const answer = {
    method: 'GET',
    url: '/api/v1/operator/hotels',
    status: 200,
    contentType: 'application/json; charset=utf-8',
    headers: { 'x-request-id': 'r1' },
    body: JSON.stringify({ data: [{ id: 'h', name: 'H', timezone: 'Europe/Lisbon', currency: 'EUR' }] }),
  };

  it('accepts a documented answer', () => {
    openApiResponseChecker(t.app)(answer);
  });

  it('refuses an undocumented status, a body off its schema, a missing X-Request-Id', () => {
    const check = openApiResponseChecker(t.app);
    assert.throws(() => check({ ...answer, status: 418 }), /status not documented/);
    assert.throws(() => check({ ...answer, body: JSON.stringify({ data: [{ id: 1 }] }) }), /does not match/);
    assert.throws(() => check({ ...answer, headers: {} }), /no X-Request-Id/);
  });

  it('skips paths the document does not describe', () => {
    openApiResponseChecker(t.app)({ ...answer, url: '/book/somewhere', status: 418 });
  });
});

// What a Schemathesis run (requests generated from the document, every answer checked against it)
// found, as requests: a request the document allows is served, one it refuses is a 400, and every
// answer here passes the response check that startTestApp wires into inject.
describe('the document and the service agree on what a request may be', () => {
  let op: OperatorApp;
  const get = (url: string) =>
    op.t.inject({ method: 'GET', url: `${OPERATOR}${url}`, headers: auth(op.root) });
  before(async () => {
    op = await startOperatorApp();
  });
  after(() => op.t.close());

  it('cancels without a body (the document says it is optional)', async () => {
    const { reservation, token } = await book(op.t, {
      hotelId: op.hotels[0].id,
      ...stay(op.t, 30, 2),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const guest = await op.t.inject({
      method: 'POST',
      url: `${BOOKING}/reservations/${reservation.id}/cancel`,
      headers: bearer(token),
    });
    assert.equal(guest.statusCode, 200, guest.body);
    const desk = await op.t.inject({
      method: 'POST',
      url: `${OPERATOR}/reservations/${reservation.id}/cancel`,
      headers: auth(op.root),
    });
    assert.equal(desk.statusCode, 200, desk.body);
  });

  it('answers POST /checkin/sessions with its documented 422 for a reused key', async () => {
    const { reservation } = await book(op.t, {
      hotelId: op.hotels[0].id,
      ...stay(op.t, 31, 1),
      adults: 1,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const open = (lastName: string) =>
      op.t.inject({
        method: 'POST',
        url: '/api/v1/checkin/sessions',
        headers: { 'idempotency-key': `agree-${reservation.id}` },
        payload: { reservationId: reservation.id, lastName },
      });
    assert.equal((await open(GUEST.lastName)).statusCode, 201);
    assertProblem(await open(`${GUEST.lastName}x`), 422, 'idempotency_key_reused');
  });

  it('reads limit as the bounded integer the document declares', async () => {
    const hotel = op.hotels[0].id;
    for (const url of [
      '/events?limit=500',
      `/hotels/${hotel}/reservations?limit=200`,
      '/audit-log?limit=1',
    ]) {
      const ok = await get(url);
      assert.equal(ok.statusCode, 200, `${url}: ${ok.body}`);
    }
    for (const url of [
      '/events?limit=0',
      '/events?limit=501',
      '/events?limit=1.5',
      '/events?limit=',
      '/events?limit=ten',
      `/hotels/${hotel}/reservations?limit=0`,
      '/audit-log?limit=201',
    ]) {
      const refused = assertProblem(await get(url), 400, 'validation_error');
      assert.equal(refused.errors[0].path, '/query/limit', url);
    }
  });

  it('refuses an empty after or cursor, as the document does (minLength 1)', async () => {
    for (const [url, path] of [
      ['/events?after=', '/query/after'],
      ['/audit-log?cursor=', '/query/cursor'],
      [`/hotels/${op.hotels[0].id}/reservations?cursor=`, '/query/cursor'],
    ] as const) {
      const refused = assertProblem(await get(url), 400, 'validation_error');
      assert.equal(refused.errors[0].path, path, url);
    }
  });

  it('refuses an empty event pattern in a webhook endpoint', async () => {
    const refused = await op.t.inject({
      method: 'POST',
      url: `${OPERATOR}/webhook-endpoints`,
      headers: auth(op.root),
      payload: { url: 'https://hooks.example.com/innkeep', events: [''] },
    });
    assert.equal(assertProblem(refused, 400, 'validation_error').errors[0].path, '/events/0');
  });
});
