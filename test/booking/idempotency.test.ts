import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  assertInvalid,
  assertProblem,
  BOOKING,
  book,
  cancel,
  GUEST,
  type Json,
  modify,
  type QuoteBody,
  quoteOk,
  requestQuote,
  reserve,
  roomsLeft,
  search,
  startBookingApp,
  stay,
} from './helpers.ts';

// Idempotency-Key on the booking POSTs and PATCH (API.md section 1).

const hotels = {
  replay: makeHotel(),
  canonical: makeHotel(),
  reused: makeHotel(),
  scopedEndpoint: makeHotel(),
  scopedCredential: makeHotel(),
  errorReplay: makeHotel(),
  quote: makeHotel(),
  patch: makeHotel(),
  cancel: makeHotel(),
  keyLength: makeHotel(),
  parallel: makeHotel(),
};

let t: TestApp;
before(async () => {
  t = await startBookingApp({ hotels: Object.values(hotels) });
});
after(() => t.close());

const key = () => ({ 'idempotency-key': randomUUID() });

function doubleStay(hotelId: string, ratePlanId = 'flex'): QuoteBody {
  const { checkIn, checkOut } = stay(t, 20, 2);
  return { hotelId, checkIn, checkOut, adults: 2, roomTypeId: 'double', ratePlanId };
}

async function reservationsOfQuote(quoteId: string): Promise<number> {
  const { rows } = await t.db.query('SELECT 1 FROM reservations WHERE quote_id = $1', [quoteId]);
  return rows.length;
}

describe('Idempotency-Key', () => {
  it('replays a reservation exactly (status, body, ETag, Location) and takes one room only', async () => {
    const h = hotels.replay;
    const body = doubleStay(h.id);
    const quote = await quoteOk(t, body);
    const headers = key();
    const first = await reserve(t, quote.id, {}, headers);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const second = await reserve(t, quote.id, {}, headers);
    assert.equal(second.statusCode, 201, second.body);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal(second.body, first.body);
    assert.match(second.json().accessToken, /^rat_/);
    for (const header of ['etag', 'location', 'content-type']) {
      assert.equal(second.headers[header], first.headers[header], header);
    }
    assert.ok(second.headers['x-request-id']);
    assert.notEqual(second.headers['x-request-id'], first.headers['x-request-id']);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 9);
    assert.equal(await reservationsOfQuote(quote.id), 1);
    // Without the key, the same request is a second use of the quote.
    assertProblem(await reserve(t, quote.id), 409, 'quote_already_used');
  });

  it('stores the replayable response encrypted: the access token is not readable in the database', async () => {
    const h = hotels.replay;
    const quote = await quoteOk(t, { ...doubleStay(h.id), roomTypeId: 'suite' });
    const res = await reserve(t, quote.id, {}, key());
    const secret = res.json().accessToken.slice('rat_'.length);
    // A booking's key is its hotel's (issue 37); both tables are read.
    const { rows } = await t.db.query<{ response: Uint8Array | null }>(
      'SELECT response FROM idempotency_keys UNION ALL SELECT response FROM hotel_idempotency_keys',
    );
    assert.ok(rows.some((r) => r.response !== null));
    for (const { response } of rows) {
      if (response) assert.ok(!Buffer.from(response).toString('latin1').includes(secret));
    }
  });

  it('treats the same body with its fields in another order as the same request', async () => {
    const h = hotels.canonical;
    const quote = await quoteOk(t, doubleStay(h.id));
    const headers = key();
    const first = await post(
      `reservations`,
      { quoteId: quote.id, guest: GUEST, specialRequests: 'x' },
      headers,
    );
    assert.equal(first.statusCode, 201, first.body);
    const reordered = {
      specialRequests: 'x',
      guest: { phone: GUEST.phone, email: GUEST.email, lastName: GUEST.lastName, firstName: GUEST.firstName },
      quoteId: quote.id,
    };
    const second = await post('reservations', reordered, headers);
    assert.equal(second.statusCode, 201, second.body);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal(second.body, first.body);
  });

  it('answers 422 idempotency_key_reused for the same key with another body, creating nothing', async () => {
    const h = hotels.reused;
    const body = doubleStay(h.id);
    const quote = await quoteOk(t, body);
    const other = await quoteOk(t, body);
    const headers = key();
    assert.equal((await reserve(t, quote.id, {}, headers)).statusCode, 201);
    assertProblem(await reserve(t, other.id, {}, headers), 422, 'idempotency_key_reused');
    assertProblem(
      await reserve(t, quote.id, { specialRequests: 'changed' }, headers),
      422,
      'idempotency_key_reused',
    );
    assert.equal(await reservationsOfQuote(other.id), 0);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 9);
  });

  it('scopes keys to the endpoint: one key on search, quote and reservation does not collide', async () => {
    const h = hotels.scopedEndpoint;
    const body = doubleStay(h.id);
    const headers = key();
    const searched = await search(
      t,
      { hotelId: h.id, checkIn: body.checkIn, checkOut: body.checkOut, adults: 2 },
      headers,
    );
    assert.equal(searched.statusCode, 200, searched.body);
    const quoted = await requestQuote(t, body, headers);
    assert.equal(quoted.statusCode, 201, quoted.body);
    assert.equal(quoted.headers['idempotent-replayed'], undefined);
    const reserved = await reserve(t, quoted.json().id, {}, headers);
    assert.equal(reserved.statusCode, 201, reserved.body);
    assert.equal(reserved.headers['idempotent-replayed'], undefined);
  });

  it("scopes keys to the credential: another token never gets the first caller's response", async () => {
    const h = hotels.scopedCredential;
    const mine = await book(t, doubleStay(h.id));
    const theirs = await book(t, doubleStay(h.id));
    const headers = key();
    const patch = { specialRequests: 'window seat' };
    const first = await modify(t, mine.reservation.id, mine.token, patch, headers);
    assert.equal(first.statusCode, 200, first.body);
    // Same path, key and body with another credential: a fresh request, refused on its own merits.
    assertProblem(await modify(t, mine.reservation.id, theirs.token, patch, headers), 403, 'forbidden');
    const replay = await modify(t, mine.reservation.id, mine.token, patch, headers);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, first.body);
  });

  it('replays a stored error response (< 500) as well', async () => {
    const h = hotels.errorReplay;
    const body = doubleStay(h.id, 'nonref');
    const quote = await quoteOk(t, body);
    const headers = key();
    const first = await reserve(t, quote.id, {}, headers);
    assertProblem(first, 402, 'payment_required');
    const second = await reserve(t, quote.id, {}, headers);
    assert.equal(second.statusCode, 402);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.match(String(second.headers['content-type']), /^application\/problem\+json/);
    assert.equal(second.body, first.body);
    // A new key with payment books it.
    const paid = await reserve(t, quote.id, { payment: { token: 'tok_visa' } }, key());
    assert.equal(paid.statusCode, 201, paid.body);
  });

  it('replays a quote: the same quote id, no second quote', async () => {
    const h = hotels.quote;
    const headers = key();
    const first = await requestQuote(t, doubleStay(h.id), headers);
    assert.equal(first.statusCode, 201, first.body);
    const second = await requestQuote(t, doubleStay(h.id), headers);
    assert.equal(second.statusCode, 201);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal(second.json().id, first.json().id);
    const { rows } = await t.db.query('SELECT 1 FROM quotes WHERE hotel_id = $1', [h.id]);
    assert.equal(rows.length, 1);
  });

  it('makes PATCH and cancel safe to retry: one version step, one cancellation', async () => {
    const h = hotels.patch;
    const { reservation, token } = await book(t, doubleStay(h.id));
    const headers = key();
    const first = await modify(t, reservation.id, token, { specialRequests: 'late' }, headers);
    const again = await modify(t, reservation.id, token, { specialRequests: 'late' }, headers);
    assert.equal(first.json().version, 2);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    assert.equal(again.headers.etag, '"2"');
    const next = await modify(t, reservation.id, token, { specialRequests: 'early' }, key());
    assert.equal(next.json().version, 3);

    const cancelKey = key();
    const cancelled = await cancel(t, reservation.id, token, { reason: 'ill' }, cancelKey);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const replayed = await cancel(t, reservation.id, token, { reason: 'ill' }, cancelKey);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(replayed.body, cancelled.body);
    assert.equal(await roomsLeft(t, h.id, 'double', reservation.checkIn, reservation.checkOut), 10);
  });

  it('accepts keys of 1 to 255 characters and answers 400 validation_error outside that', async () => {
    const h = hotels.keyLength;
    const body = doubleStay(h.id);
    // Short fixed keys would collide with other runs on a shared database: keys are scoped to the
    // credential, so a fresh reservation's token makes them unique.
    const { reservation, token } = await book(t, body);
    const one = await modify(t, reservation.id, token, { specialRequests: 'a' }, { 'idempotency-key': 'k' });
    assert.equal(one.statusCode, 200, one.body);
    const max = await modify(
      t,
      reservation.id,
      token,
      { specialRequests: 'b' },
      { 'idempotency-key': 'k'.repeat(255) },
    );
    assert.equal(max.statusCode, 200, max.body);
    assert.equal(max.json().version, 3);
    assertInvalid(
      await modify(
        t,
        reservation.id,
        token,
        { specialRequests: 'c' },
        { 'idempotency-key': 'k'.repeat(256) },
      ),
      '/headers/idempotency-key',
    );
    assertInvalid(
      await requestQuote(t, body, { 'idempotency-key': 'k'.repeat(256) }),
      '/headers/idempotency-key',
    );
    assertInvalid(await requestQuote(t, body, { 'idempotency-key': '' }), '/headers/idempotency-key');
    const quote = await quoteOk(t, body);
    assertInvalid(
      await reserve(t, quote.id, {}, { 'idempotency-key': 'x'.repeat(300) }),
      '/headers/idempotency-key',
    );
    assert.equal(await reservationsOfQuote(quote.id), 0);
  });

  it('reads a quoted key as the structured-field string of the IETF draft: "k" and k are one key', async () => {
    const h = hotels.keyLength;
    const { reservation, token } = await book(t, doubleStay(h.id));
    const key = `sf-${randomUUID()}`;
    const bare = await modify(t, reservation.id, token, { specialRequests: 'q' }, { 'idempotency-key': key });
    assert.equal(bare.statusCode, 200, bare.body);
    const quoted = await modify(
      t,
      reservation.id,
      token,
      { specialRequests: 'q' },
      { 'idempotency-key': `"${key}"` },
    );
    assert.equal(quoted.statusCode, 200, quoted.body);
    assert.equal(quoted.headers['idempotent-replayed'], 'true', 'the quotes are not part of the key');
    assert.equal(quoted.body, bare.body);
    for (const bad of ['"unterminated', '"a"b"', '""', `"${'k'.repeat(256)}"`]) {
      assertInvalid(
        await modify(t, reservation.id, token, { specialRequests: 'r' }, { 'idempotency-key': bad }),
        '/headers/idempotency-key',
      );
    }
  });

  it('lets only one of several concurrent identical requests run (others replay or 409 idempotency_in_progress)', async () => {
    const h = hotels.parallel;
    const body = doubleStay(h.id);
    const quote = await quoteOk(t, body);
    const headers = key();
    const responses = await Promise.all(Array.from({ length: 8 }, () => reserve(t, quote.id, {}, headers)));
    const created = responses.filter((r) => r.statusCode === 201);
    const inProgress = responses.filter((r) => r.statusCode === 409);
    assert.equal(
      created.length + inProgress.length,
      responses.length,
      responses.map((r) => r.body).join('\n'),
    );
    assert.ok(created.length >= 1);
    for (const r of inProgress) {
      assertProblem(r, 409, 'idempotency_in_progress');
      assert.ok(r.headers['retry-after']);
    }
    const ids = new Set(created.map((r) => (r.json() as Json).id));
    assert.equal(ids.size, 1);
    assert.equal(created.filter((r) => r.headers['idempotent-replayed'] !== 'true').length, 1);
    assert.equal(await reservationsOfQuote(quote.id), 1);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 9);
    // Once the first finished, a retry is a replay.
    const retry = await reserve(t, quote.id, {}, headers);
    assert.equal(retry.statusCode, 201);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
  });
});

describe('Idempotency-Key on paths that are not endpoints', () => {
  it('stores nothing for an unknown path or method: each answer is fresh, with its Allow header', async () => {
    const headers = key();
    for (const url of [`${BOOKING}/quote/`, `${BOOKING}/no-such-thing`]) {
      const first = await t.inject({ method: 'POST', url, payload: { a: 1 }, headers });
      const second = await t.inject({ method: 'POST', url, payload: { a: 2 }, headers });
      assert.ok([404, 405].includes(first.statusCode), first.body);
      assert.equal(second.statusCode, first.statusCode, second.body);
      assert.equal(second.headers['idempotent-replayed'], undefined);
      assert.equal(second.json().requestId, second.headers['x-request-id']);
      assert.equal(second.headers.allow, first.headers.allow);
    }
  });
});

function post(path: string, payload: unknown, headers: Record<string, string>) {
  return t.inject({ method: 'POST', url: `${BOOKING}/${path}`, payload: payload as object, headers });
}
