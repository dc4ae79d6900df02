import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { createInnkeepClient } from '../../clients/typescript/index.ts';
import { CLIENT_DIR, clientTypesOf } from '../../scripts/client-types.ts';
import { buildOpenApiDocument } from '../../scripts/openapi-document.ts';
import { stay } from '../booking/helpers.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { testFileEmbeddedDatabase } from '../helpers/test-database.ts';

describe('the OpenAPI document and the generated TypeScript client', () => {
  let document: Record<string, unknown>;
  before(async () => {
    document = await buildOpenApiDocument(await testFileEmbeddedDatabase());
  });

  it('are up to date with the routes (else run `npm run client:generate`)', async () => {
    const stale = 'clients/typescript is out of date: run `npm run client:generate` and commit the result';
    assert.deepEqual(JSON.parse(readFileSync(`${CLIENT_DIR}/openapi.json`, 'utf8')), document, stale);
    assert.equal(readFileSync(`${CLIENT_DIR}/schema.d.ts`, 'utf8'), await clientTypesOf(document), stale);
  });

  it('has no error under Redocly’s recommended rules', async () => {
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: '/openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(errors, []);
  });
});

describe('the generated client, over a real port', () => {
  let t: TestApp;
  let baseUrl: string;
  const hotel = makeHotel();
  before(async () => {
    t = await startTestApp({ hotels: [hotel], env: { LOG_LEVEL: 'silent' } });
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  it('searches, quotes, books, modifies and cancels, type-checked end to end', async () => {
    const innkeep = createInnkeepClient(baseUrl);
    const dates = stay(t, 20, 2);
    const search = await innkeep.POST('/api/v1/booking/availability/search', {
      body: { hotelId: hotel.id, ...dates, adults: 2 },
    });
    assert.ok(search.data, JSON.stringify(search.error));
    const offer = search.data.offers.find((o) => o.ratePlan.id === 'flex' && o.roomType.id === 'double');
    assert.ok(offer, 'a flexible double is offered');

    const quote = await innkeep.POST('/api/v1/booking/quote', {
      body: { hotelId: hotel.id, ...dates, adults: 2, roomTypeId: 'double', ratePlanId: 'flex' },
    });
    assert.ok(quote.data, JSON.stringify(quote.error));
    assert.equal(quote.data.total.amount, offer.total.amount);

    const booked = await innkeep.POST('/api/v1/booking/reservations', {
      body: {
        quoteId: quote.data.id,
        guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' },
      },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    assert.ok(booked.data, JSON.stringify(booked.error));
    const { accessToken, ...reservation } = booked.data;
    const auth = { Authorization: `Bearer ${accessToken}` };

    const changed = await innkeep.PATCH('/api/v1/booking/reservations/{reservation}', {
      params: { path: { reservation: reservation.id } },
      body: { specialRequests: 'late arrival' },
      headers: { ...auth, 'If-Match': `"${reservation.version}"` },
    });
    assert.ok(changed.data, JSON.stringify(changed.error));
    assert.equal(changed.data.specialRequests, 'late arrival');

    const cancelled = await innkeep.POST('/api/v1/booking/reservations/{reservation}/cancel', {
      params: { path: { reservation: reservation.id } },
      body: { reason: 'plans changed' },
      headers: auth,
    });
    assert.ok(cancelled.data, JSON.stringify(cancelled.error));
    assert.equal(cancelled.data.status, 'cancelled');

    // An error answer is the typed problem.
    const stale = await innkeep.PATCH('/api/v1/booking/reservations/{reservation}', {
      params: { path: { reservation: reservation.id } },
      body: { specialRequests: 'again' },
      headers: { ...auth, 'If-Match': `"${cancelled.data.version}"` },
    });
    assert.equal(stale.response.status, 409, 'a cancelled reservation cannot change');
    assert.equal(stale.error?.code, 'reservation_cancelled');
  });
});
