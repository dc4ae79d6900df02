/**
 * `Idempotency-Key` is 1–255 characters on every route (API.md section 1), its value as sent: a
 * quoted key counts its quotes. Before, booking and operator routes checked the raw header at 255
 * while check-in routes took a quoted 255-character key (257 raw), and the OpenAPI document said 257.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertInvalid } from '../booking/helpers.ts';
import { bookStay, CHECKIN, GUEST_DETAILS, openedSession } from '../checkin/helpers.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

const quoted = (length: number) => `"${'k'.repeat(length - 2)}"`;

describe('Idempotency-Key length: one rule on every route', () => {
  let app: OperatorApp;
  let requests: Array<{ name: string; send: (key: string) => ReturnType<OperatorApp['t']['inject']> }>;
  before(async () => {
    app = await startOperatorApp();
    const { t } = app;
    const [hotel] = app.hotels;
    const booked = await bookStay(t, hotel);
    const session = await openedSession(t, booked);
    const post =
      (url: string, payload: object, headers: Record<string, string> = {}) =>
      (key: string) =>
        t.inject({ method: 'POST', url, payload, headers: { ...headers, 'idempotency-key': key } });
    requests = [
      {
        name: 'booking quote',
        send: post('/api/v1/booking/quote', {
          hotelId: hotel.id,
          checkIn: booked.checkIn,
          checkOut: booked.checkOut,
          adults: 1,
          roomTypeId: 'double',
          ratePlanId: 'flex',
        }),
      },
      {
        name: 'check-in session',
        send: post(`${CHECKIN}/sessions`, { reservationId: booked.code, lastName: 'Silva' }),
      },
      {
        name: 'check-in step',
        send: post(`${CHECKIN}/sessions/${session.id}/step`, { step: 'guest_details', data: GUEST_DETAILS }),
      },
      {
        name: 'operator key',
        send: post(
          `${OPERATOR}/keys`,
          { name: 'length test', scopes: ['reservations:read'] },
          auth(app.root),
        ),
      },
      // Last: the reservation is cancelled after it.
      {
        name: 'booking cancel',
        send: post(`/api/v1/booking/reservations/${booked.code}/cancel`, {}, auth(booked.token)),
      },
    ];
  });
  after(() => app.t.close());

  it('refuses 256 characters as sent, bare or quoted, with 400 validation_error everywhere', async () => {
    for (const { name, send } of requests) {
      for (const key of ['k'.repeat(256), quoted(256), quoted(257), '', '""']) {
        assertInvalid(await send(key), '/headers/idempotency-key');
        assert.ok(true, `${name}: ${key.length}`);
      }
    }
  });

  it('accepts 255 characters as sent, bare or quoted, everywhere', async () => {
    for (const { name, send } of requests) {
      for (const key of [quoted(255), `${'k'.repeat(253)}${String(name.length).padStart(2, '0')}`]) {
        const res = await send(key);
        assert.ok(res.statusCode < 300, `${name}, ${key.length} characters: ${res.statusCode} ${res.body}`);
      }
    }
  });

  it('the OpenAPI document gives every POST the same rule', async () => {
    const doc = (await app.t.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    let posts = 0;
    type Operation = {
      parameters?: Array<{ name: string; schema: { minLength?: number; maxLength?: number } }>;
    };
    for (const [path, item] of Object.entries(doc.paths as Record<string, { post?: Operation }>)) {
      const operation = item.post;
      if (!operation) continue;
      posts++;
      const header = operation.parameters?.find((p) => p.name.toLowerCase() === 'idempotency-key');
      assert.ok(header, `${path} documents Idempotency-Key`);
      assert.equal(header.schema.minLength, 1, path);
      assert.equal(header.schema.maxLength, 255, path);
    }
    assert.ok(posts >= 8);
  });
});
