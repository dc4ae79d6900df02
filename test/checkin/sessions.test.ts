import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { createLogger } from '../../src/infra/logger.ts';
import { createRuntime } from '../../src/runtime.ts';
import { assertInvalid, assertProblem, bearer, cancel, type Json } from '../booking/helpers.ts';
import { limitItem } from '../helpers/rate-limit-headers.ts';
import { sharedSchemaCompilers } from '../helpers/schema-compilers.ts';
import {
  bookStay,
  GUEST_DETAILS,
  getSession,
  moveClockTo,
  openedSession,
  openSession,
  reservationRow,
  startCheckinApp,
  submitStep,
  wallTimeUtc,
} from './helpers.ts';

const withoutRequestId = (body: Json) => {
  const { requestId: _, ...rest } = body;
  return rest;
};

describe('POST /checkin/sessions', () => {
  it('opens a session by last name, case- and accent-insensitively, and returns it again after', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx, {
      hotel: { timezone: 'America/New_York', checkOutTime: '10:30' },
    });
    const booked = await bookStay(t, hotel, {
      adults: 2,
      children: [7],
      roomTypeId: 'suite',
      guest: { firstName: 'João', lastName: 'Conceição', email: 'joao@example.com' },
    });
    const before = await reservationRow(t, booked.code);

    const first = await openSession(t, {
      reservationId: booked.code.toLowerCase(),
      lastName: '  CONCEICAO ',
    });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.headers['cache-control'], 'no-store');
    const { session, signature } = first.json();
    assert.match(session.id, /^cks_[0-9a-z]{26,}$/, 'cks_ + at least 128 random bits');
    assert.equal(typeof signature, 'string');
    assert.deepEqual(Object.keys(session), [
      'id',
      'status',
      'expiresAt',
      'reservation',
      'steps',
      'nextStep',
      'createdAt',
      'updatedAt',
      'completedAt',
    ]);
    assert.equal(session.status, 'open');
    assert.equal(session.expiresAt, wallTimeUtc(booked.checkOut, '10:30', 'America/New_York'));
    assert.deepEqual(session.reservation, {
      id: booked.code,
      status: 'confirmed',
      hotel: { id: hotel.id, name: hotel.name },
      checkIn: booked.checkIn,
      checkOut: booked.checkOut,
      nights: 3,
      adults: 2,
      children: [7],
      rooms: 1,
      roomType: { id: 'suite', name: 'Suite' },
      guestName: 'João Conceição',
      guestEmail: 'joao@example.com',
      total: booked.reservation.total,
      balanceDue: booked.reservation.total,
    });
    assert.deepEqual(session.steps, [
      { name: 'guest_details', status: 'pending', required: true },
      { name: 'companions', status: 'pending', required: true },
      { name: 'identity_document', status: 'pending', required: true },
      { name: 'signature', status: 'pending', required: true },
      { name: 'payment', status: 'pending', required: true },
    ]);
    assert.equal(session.nextStep, 'guest_details');
    assert.equal(session.completedAt, null);
    assert.match(session.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    // The reservation shows the check-in started; nothing else about it changed.
    const after = await reservationRow(t, booked.code);
    assert.equal(after.checkin_status, 'in_progress');
    assert.equal(after.version, before.version);
    assert.deepEqual(after.updated_at, before.updated_at);

    // Proving the reservation again (either way) returns the same session with 200.
    const again = await openSession(t, { reservationId: booked.code, lastName: 'conceição' });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().session.id, session.id);
    const byToken = await openSession(t, { reservationId: booked.code }, bearer(booked.token));
    assert.equal(byToken.statusCode, 200, byToken.body);
    assert.equal(byToken.json().session.id, session.id);

    // The id is stored only hashed (and encrypted, to hand it back); never in plain.
    const { rows } = await t.db.query<{ token_hash: Uint8Array; token_secret: Uint8Array }>(
      'SELECT token_hash, token_secret FROM checkin_sessions s JOIN reservations r ON r.hotel_id = s.hotel_id AND r.id = s.reservation_id WHERE r.code = $1',
      [booked.code],
    );
    assert.equal(rows.length, 1);
    const row = rows[0] as { token_hash: Uint8Array; token_secret: Uint8Array };
    assert.deepEqual(Buffer.from(row.token_hash), createHash('sha256').update(session.id).digest());
    assert.equal(Buffer.from(row.token_secret).includes(session.id), false);
    assert.equal(Buffer.from(row.token_secret).includes(session.id.slice(4)), false);
  });

  it('opens a session with the reservation access token', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const res = await openSession(t, { reservationId: booked.code }, bearer(booked.token));
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().session.reservation.id, booked.code);
  });

  it('answers every failed proof with the same 404, whether or not the code exists', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const other = await bookStay(t, hotel, {
      guest: { firstName: 'Bo', lastName: 'Berg', email: 'bo@example.com' },
    });
    const attempts = [
      openSession(t, { reservationId: 'ZZZZZZZZZ', lastName: 'Silva' }),
      openSession(t, { reservationId: 'not a code!', lastName: 'Silva' }),
      openSession(t, { reservationId: booked.code, lastName: 'Silvas' }),
      openSession(t, { reservationId: booked.code, lastName: 'Berg' }),
      openSession(t, { reservationId: booked.code }, bearer('rat_wrongwrongwrongwrongwrongwrong')),
      openSession(t, { reservationId: booked.code }, bearer(other.token)),
      openSession(t, { reservationId: 'ZZZZZZZZZ' }, bearer(booked.token)),
    ];
    const bodies = [];
    for (const res of await Promise.all(attempts))
      bodies.push(withoutRequestId(assertProblem(res, 404, 'not_found')));
    for (const body of bodies) assert.deepEqual(body, bodies[0]);
    // No session was opened by any of them.
    assert.equal((await reservationRow(t, booked.code)).checkin_status, 'not_started');
  });

  it('needs a proof: no last name and no token is 401; a malformed body is 400', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const noProof = await openSession(t, { reservationId: booked.code });
    assertProblem(noProof, 401, 'unauthorized');
    assert.equal(noProof.headers['www-authenticate'], 'Bearer realm="innkeep"');
    assertProblem(
      await openSession(t, { reservationId: booked.code }, { authorization: `Basic ${booked.token}` }),
      401,
      'unauthorized',
    );
    assertInvalid(await openSession(t, { lastName: 'Silva' }), '/reservationId');
    assertInvalid(await openSession(t, { reservationId: booked.code, lastName: 'Silva', pin: 1 }), '/pin');
    assertInvalid(await openSession(t, { reservationId: booked.code, lastName: '' }), '/lastName');
  });

  it('limits failed proofs per address and code, in the database, with 429 and Retry-After', async (ctx) => {
    const env = { CHECKIN_PROOF_LIMIT: '3', CHECKIN_PROOF_WINDOW_SECONDS: '60' };
    const { t, hotel } = await startCheckinApp(ctx, { env });
    const attacker = { remoteAddress: '203.0.113.9' };
    const booked = await bookStay(t, hotel);
    const guess = (lastName: string) =>
      t.inject({
        method: 'POST',
        url: '/api/v1/checkin/sessions',
        payload: { reservationId: booked.code, lastName },
        ...attacker,
      });
    for (let i = 0; i < 3; i++) assertProblem(await guess(`Wrong${i}`), 404, 'not_found');
    const limited = assertProblem(await guess('Wrong3'), 429, 'rate_limited');
    assert.ok(limited.detail);
    const retry = await guess('Silva');
    assertProblem(retry, 429, 'rate_limited');
    const retryAfter = Number(retry.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retry.headers['retry-after']}`);
    // The proof limit reports its own numbers, not the general limit's.
    assert.match(String(retry.headers['ratelimit-policy']), /"checkin-proof";q=3;w=\d+/);
    const proofLimit = limitItem(retry.headers.ratelimit, 'checkin-proof');
    assert.equal(proofLimit.r, 0);
    assert.equal(proofLimit.t, retryAfter);

    // Another address is not affected, and successful proofs do not count.
    for (let i = 0; i < 5; i++) {
      const ok = await t.inject({
        method: 'POST',
        url: '/api/v1/checkin/sessions',
        payload: { reservationId: booked.code, lastName: 'Silva' },
        remoteAddress: '198.51.100.7',
      });
      assert.ok(ok.statusCode === 201 || ok.statusCode === 200, ok.body);
    }

    // The count lives in the database: a second process on the same database refuses too.
    const logger = createLogger('silent');
    const second = await createRuntime(t.config, logger, {
      db: t.db,
      hotels: parseCatalog({ hotels: [hotel] }).hotels,
      clock: t.clock,
      schemaCompilers: sharedSchemaCompilers,
    });
    try {
      const res = await second.app.inject({
        method: 'POST',
        url: '/api/v1/checkin/sessions',
        payload: { reservationId: booked.code, lastName: 'Silva' },
        ...attacker,
      });
      assertProblem(res as never, 429, 'rate_limited');
    } finally {
      await second.close();
    }

    // Once the window has passed, the address may try again.
    t.clock.advance(61_000);
    const after = await guess('Silva');
    assert.equal(after.statusCode, 200, after.body);
  });

  it('does not let failures at a shared address lock others out before the address ceiling', async (ctx) => {
    const env = {
      CHECKIN_PROOF_LIMIT: '3',
      CHECKIN_PROOF_ADDRESS_LIMIT: '10',
      CHECKIN_PROOF_WINDOW_SECONDS: '60',
    };
    const { t, hotel } = await startCheckinApp(ctx, { env });
    const shared = { remoteAddress: '192.0.2.44' }; // a hotel's Wi-Fi: guests and a guesser alike
    const open = (body: object, headers: Record<string, string> = {}) =>
      t.inject({ method: 'POST', url: '/api/v1/checkin/sessions', payload: body, headers, ...shared });
    const guest = await bookStay(t, hotel);
    const other = await bookStay(t, hotel, {
      guest: { firstName: 'Bo', lastName: 'Berg', email: 'bo@example.com' },
    });
    // Three codes failed up to their own limit (9 failures), and one over it: 429 for that code only.
    for (const code of ['ZZZZZZZZ1', 'ZZZZZZZZ2', guest.code]) {
      for (let i = 0; i < 3; i++)
        assertProblem(await open({ reservationId: code, lastName: 'Nope' }), 404, 'not_found');
    }
    const perCode = await open({ reservationId: guest.code, lastName: 'Silva' });
    assertProblem(perCode, 429, 'rate_limited');
    assert.ok(Number(perCode.headers['retry-after']) >= 1, 'Retry-After');
    assert.equal(limitItem(perCode.headers.ratelimit, 'checkin-proof').r, 0);
    // Another reservation from the same address, with its correct last name, is not blocked.
    const berg = await open({ reservationId: other.code, lastName: 'Berg' });
    assert.equal(berg.statusCode, 201, berg.body);
    // The guest whose code is limited still gets in with the access token.
    const byToken = await open({ reservationId: guest.code }, bearer(guest.token));
    assert.equal(byToken.statusCode, 201, byToken.body);

    // The address ceiling (10) is reached by the 11th failure over all codes: then every
    // proof by name from this address waits, with Retry-After; a valid token still does not.
    assertProblem(await open({ reservationId: 'ZZZZZZZZ3', lastName: 'Nope' }), 404, 'not_found');
    const ceiling = await open({ reservationId: 'ZZZZZZZZ4', lastName: 'Nope' });
    assertProblem(ceiling, 429, 'rate_limited');
    const retryAfter = Number(ceiling.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${ceiling.headers['retry-after']}`);
    assert.match(String(ceiling.headers['ratelimit-policy']), /"checkin-proof-address";q=10;w=\d+/);
    assertProblem(await open({ reservationId: other.code, lastName: 'Berg' }), 429, 'rate_limited');
    const tokenAgain = await open({ reservationId: other.code }, bearer(other.token));
    assert.equal(tokenAgain.statusCode, 200, tokenAgain.body);
    // Elsewhere, nothing is limited.
    const elsewhere = await t.inject({
      method: 'POST',
      url: '/api/v1/checkin/sessions',
      payload: { reservationId: guest.code, lastName: 'Silva' },
      remoteAddress: '198.51.100.8',
    });
    assert.equal(elsewhere.statusCode, 200, elsewhere.body);
  });

  it('never rate limits a valid access token, however many proofs failed from its address', async (ctx) => {
    const env = {
      CHECKIN_PROOF_LIMIT: '2',
      CHECKIN_PROOF_ADDRESS_LIMIT: '2',
      CHECKIN_PROOF_WINDOW_SECONDS: '60',
    };
    const { t, hotel } = await startCheckinApp(ctx, { env });
    const from = { remoteAddress: '192.0.2.45' };
    const booked = await bookStay(t, hotel);
    const open = (body: object, headers: Record<string, string> = {}) =>
      t.inject({ method: 'POST', url: '/api/v1/checkin/sessions', payload: body, headers, ...from });
    for (let i = 0; i < 5; i++) await open({ reservationId: booked.code, lastName: `Wrong${i}` });
    assertProblem(await open({ reservationId: booked.code, lastName: 'Silva' }), 429, 'rate_limited');
    // A wrong token is a failed proof like a wrong name: limited.
    assertProblem(
      await open({ reservationId: booked.code }, bearer('rat_wrongwrongwrongwrong')),
      429,
      'rate_limited',
    );
    for (const expected of [201, 200, 200]) {
      const res = await open({ reservationId: booked.code }, bearer(booked.token));
      assert.equal(res.statusCode, expected, res.body);
    }
  });

  it('refuses a cancelled reservation with 409 reservation_cancelled', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    assert.equal((await cancel(t, booked.code, booked.token)).statusCode, 200);
    assertProblem(
      await openSession(t, { reservationId: booked.code, lastName: 'Silva' }),
      409,
      'reservation_cancelled',
    );
    assertProblem(
      await openSession(t, { reservationId: booked.code }, bearer(booked.token)),
      409,
      'reservation_cancelled',
    );
  });

  it('creates one session under concurrent opens', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => openSession(t, { reservationId: booked.code, lastName: 'Silva' })),
    );
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 200, 200, 201]);
    assert.equal(new Set(results.map((r) => r.json().session.id)).size, 1);
  });
});

describe('session lifetime', () => {
  it('expires at check-out: 410 for every request, with a detail that says to contact the hotel', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel, { adults: 2 });
    const { id, body } = await openedSession(t, booked);
    const expiresAt = body.session.expiresAt;
    assert.equal(expiresAt, wallTimeUtc(booked.checkOut, '11:00', hotel.timezone));

    moveClockTo(t, expiresAt, -1000);
    assert.equal((await getSession(t, id)).statusCode, 200);
    moveClockTo(t, expiresAt);
    const gone = assertProblem(await getSession(t, id), 410, 'session_expired');
    assert.match(gone.detail, /contact the hotel/i);
    assertProblem(await submitStep(t, id, 'guest_details', GUEST_DETAILS), 410, 'session_expired');
    // Even a request that would otherwise be invalid.
    assertProblem(await submitStep(t, id, 'nonsense', 1), 410, 'session_expired');
    assertProblem(
      await openSession(t, { reservationId: booked.code, lastName: 'Silva' }),
      410,
      'session_expired',
    );
    assertProblem(
      await openSession(t, { reservationId: booked.code }, bearer(booked.token)),
      410,
      'session_expired',
    );
  });

  it('refuses to open a session for a stay that has checked out', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    moveClockTo(t, wallTimeUtc(booked.checkOut, '11:00', hotel.timezone), 60_000);
    assertProblem(
      await openSession(t, { reservationId: booked.code, lastName: 'Silva' }),
      410,
      'session_expired',
    );
  });

  it('answers 404 for unknown session ids', async (ctx) => {
    const { t } = await startCheckinApp(ctx);
    const unknown = 'cks_0000000000000000000000000000000a';
    assertProblem(await getSession(t, unknown), 404, 'not_found');
    assertProblem(await getSession(t, 'whatever'), 404, 'not_found');
    assertProblem(await submitStep(t, unknown, 'guest_details', GUEST_DETAILS), 404, 'not_found');
  });

  it('shows the session as cancelled once the reservation is cancelled, and refuses steps', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    // Read first: on the embedded engine the session is then answered from memory until a write
    // (here the reservation's cancellation) sends the next read to the database.
    for (let i = 0; i < 2; i++) assert.equal((await getSession(t, id)).json().session.status, 'open');
    assert.equal((await cancel(t, booked.code, booked.token)).statusCode, 200);
    const res = await getSession(t, id);
    assert.equal(res.statusCode, 200, res.body);
    const { session } = res.json();
    assert.equal(session.status, 'cancelled');
    assert.equal(session.reservation.status, 'cancelled');
    assert.equal(session.nextStep, null);
    assertProblem(await submitStep(t, id, 'guest_details', GUEST_DETAILS), 409, 'reservation_cancelled');
  });
});
