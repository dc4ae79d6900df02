import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openApiResponseChecker } from '../helpers/openapi-responses.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

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
