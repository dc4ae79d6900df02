import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertInvalid, assertProblem, eur, type Json, recordingPayments } from '../booking/helpers.ts';
import {
  bookStay,
  companion,
  completeCheckin,
  DOCUMENT_NUMBER,
  dataOf,
  dataUrl,
  GUEST_DETAILS,
  getSession,
  identityDocument,
  JPEG,
  openedSession,
  PNG,
  reservationRow,
  SIGNATURE,
  startCheckinApp,
  statusOf,
  stepOk,
  submitStep,
} from './helpers.ts';

const MiB = 1024 * 1024;

/** The session without its signature and timestamps, to compare "nothing changed". */
async function snapshot(t: Parameters<typeof getSession>[0], id: string): Promise<Json> {
  const res = await getSession(t, id);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().session;
}

async function stepRows(t: Parameters<typeof getSession>[0], code: string) {
  const { rows } = await t.db.query<{
    name: string;
    status: string;
    data: Json;
    secret: Uint8Array | null;
    attachment: Uint8Array | null;
  }>(
    `SELECT st.name, st.status, st.data, st.secret, st.attachment
     FROM checkin_steps st JOIN checkin_sessions s ON s.hotel_id = st.hotel_id AND s.id = st.session_id JOIN reservations r ON r.hotel_id = s.hotel_id AND r.id = s.reservation_id
     WHERE r.code = $1 ORDER BY st.position`,
    [code],
  );
  return rows;
}

async function checkinPayments(t: Parameters<typeof getSession>[0], code: string) {
  const { rows } = await t.db.query<{
    kind: string;
    purpose: string;
    amount: number;
    currency: string;
    brand: string;
    last4: string;
  }>(
    `SELECT p.kind, p.purpose, p.amount, p.currency, p.brand, p.last4
     FROM payments p JOIN reservations r ON r.hotel_id = p.hotel_id AND r.id = p.reservation_id WHERE r.code = $1 AND p.purpose = 'checkin'`,
    [code],
  );
  return rows;
}

describe('check-in steps', () => {
  it('runs the whole check-in in order, charges the balance and completes the reservation check-in', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel, { adults: 2, children: [4], roomTypeId: 'suite' });
    const { id } = await openedSession(t, booked);
    const total = booked.reservation.total;

    let body = await stepOk(t, id, 'guest_details', GUEST_DETAILS);
    assert.equal(statusOf(body.session, 'guest_details'), 'completed');
    assert.deepEqual(dataOf(body.session, 'guest_details'), GUEST_DETAILS);
    assert.equal(body.session.nextStep, 'companions');

    body = await stepOk(t, id, 'companions', { guests: [companion(1), companion(2)] });
    assert.equal(body.session.nextStep, 'identity_document');
    assert.deepEqual(dataOf(body.session, 'companions'), { guests: [companion(1), companion(2)] });

    body = await stepOk(
      t,
      id,
      'identity_document',
      identityDocument(booked.checkOut, { image: dataUrl('image/png', PNG) }),
    );
    assert.deepEqual(dataOf(body.session, 'identity_document'), {
      type: 'passport',
      numberLast4: DOCUMENT_NUMBER.slice(-4),
      issuingCountry: 'PT',
      expiryDate: identityDocument(booked.checkOut).expiryDate,
      hasImage: true,
    });
    assert.equal(body.session.nextStep, 'signature');

    body = await stepOk(t, id, 'signature', SIGNATURE);
    assert.deepEqual(dataOf(body.session, 'signature'), {
      acceptTerms: true,
      signerName: 'Ana Silva',
      signed: true,
    });
    assert.equal(body.session.nextStep, 'payment');
    assert.equal(body.session.status, 'open');
    assert.equal(body.session.completedAt, null);
    assert.equal((await reservationRow(t, booked.code)).checkin_status, 'in_progress');

    const versionBefore = (await reservationRow(t, booked.code)).version;
    body = await stepOk(t, id, 'payment', { token: 'tok_visa' });
    assert.deepEqual(dataOf(body.session, 'payment'), { amount: total, brand: 'visa', last4: '4242' });
    assert.equal(body.session.status, 'completed');
    assert.equal(body.session.nextStep, null);
    assert.match(body.session.completedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.deepEqual(body.session.reservation.balanceDue, eur(0));
    assert.ok(body.session.steps.every((s: Json) => s.status === 'completed'));

    const reservation = await reservationRow(t, booked.code);
    assert.equal(reservation.checkin_status, 'completed');
    assert.equal(reservation.paid_amount, total.amount);
    assert.equal(reservation.payment_status, 'paid');
    assert.equal(reservation.version, versionBefore + 1);
    assert.deepEqual(await checkinPayments(t, booked.code), [
      {
        kind: 'charge',
        purpose: 'checkin',
        amount: total.amount,
        currency: 'EUR',
        brand: 'visa',
        last4: '4242',
      },
    ]);

    // GET shows the same completed session.
    assert.deepEqual(await snapshot(t, id), body.session);
  });

  it('refuses a step while an earlier required step is pending', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel, { adults: 2 });
    const { id } = await openedSession(t, booked);
    assertProblem(
      await submitStep(t, id, 'identity_document', identityDocument(booked.checkOut)),
      409,
      'step_out_of_order',
    );
    assertProblem(await submitStep(t, id, 'payment', { token: 'tok_visa' }), 409, 'step_out_of_order');
    await stepOk(t, id, 'guest_details', GUEST_DETAILS);
    // Companions (party of two) is still pending.
    assertProblem(await submitStep(t, id, 'signature', SIGNATURE), 409, 'step_out_of_order');
    assert.deepEqual(await checkinPayments(t, booked.code), []);
  });

  it('skips companions for a party of one and payment when nothing is due', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    // Non-refundable, prepaid at booking: nothing is due at check-in.
    const booked = await bookStay(t, hotel, { ratePlanId: 'nonref', payment: { token: 'tok_visa' } });
    const { id, body } = await openedSession(t, booked);
    assert.equal(statusOf(body.session, 'companions'), 'skipped');
    assert.equal(statusOf(body.session, 'payment'), 'skipped');
    assert.deepEqual(body.session.reservation.balanceDue, eur(0));
    assertProblem(await submitStep(t, id, 'companions', { guests: [] }), 409, 'step_not_applicable');

    await stepOk(t, id, 'guest_details', GUEST_DETAILS);
    const afterGuest = await snapshot(t, id);
    assert.equal(afterGuest.nextStep, 'identity_document');
    await stepOk(t, id, 'identity_document', identityDocument(booked.checkOut));
    assertProblem(await submitStep(t, id, 'payment', { token: 'tok_visa' }), 409, 'step_not_applicable');
    const done = await stepOk(t, id, 'signature', SIGNATURE);
    assert.equal(done.session.status, 'completed');
    assert.equal(done.session.nextStep, null);
    assert.equal(statusOf(done.session, 'payment'), 'skipped');
    assert.equal(dataOf(done.session, 'payment'), undefined);
    assert.equal((await reservationRow(t, booked.code)).checkin_status, 'completed');
  });

  it('lets a completed step be corrected until the session completes, then refuses with session_completed', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    await stepOk(t, id, 'guest_details', GUEST_DETAILS);
    await stepOk(t, id, 'identity_document', identityDocument(booked.checkOut));

    const corrected = { ...GUEST_DETAILS, lastName: 'Santos', email: 'ana.santos@example.com' };
    const body = await stepOk(t, id, 'guest_details', corrected);
    assert.deepEqual(dataOf(body.session, 'guest_details'), corrected);
    assert.equal(statusOf(body.session, 'identity_document'), 'completed');
    assert.equal(body.session.nextStep, 'signature');

    const fixedDocument = await stepOk(t, id, 'identity_document', {
      ...identityDocument(booked.checkOut),
      number: 'AB0001111',
    });
    assert.equal(dataOf(fixedDocument.session, 'identity_document').numberLast4, '1111');

    const done = await completeCheckin(t, id, booked);
    assert.equal(done.session.status, 'completed');
    for (const [step, data] of [
      ['guest_details', GUEST_DETAILS],
      ['signature', SIGNATURE],
      ['payment', { token: 'tok_visa' }],
    ] as const) {
      assertProblem(await submitStep(t, id, step, data), 409, 'session_completed');
    }
  });

  it('answers 402 payment_failed on a decline, leaving the step pending and nothing paid', async (ctx) => {
    const payments = recordingPayments();
    const { t, hotel } = await startCheckinApp(ctx, { payments: payments.provider });
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    await stepOk(t, id, 'guest_details', GUEST_DETAILS);
    await stepOk(t, id, 'identity_document', identityDocument(booked.checkOut));
    await stepOk(t, id, 'signature', SIGNATURE);
    const before = await snapshot(t, id);

    for (const token of ['tok_declined', 'tok_insufficient_funds']) {
      assertProblem(await submitStep(t, id, 'payment', { token }), 402, 'payment_failed');
    }
    const after = await snapshot(t, id);
    assert.deepEqual(after, before);
    assert.equal(statusOf(after, 'payment'), 'pending');
    assert.equal(after.nextStep, 'payment');
    const reservation = await reservationRow(t, booked.code);
    assert.equal(reservation.paid_amount, 0);
    assert.equal(reservation.payment_status, 'unpaid');
    assert.deepEqual(await checkinPayments(t, booked.code), []);
    assert.equal(payments.netFor(booked.code), 0);

    const paid = await stepOk(t, id, 'payment', { token: 'tok_mastercard' });
    assert.equal(paid.session.status, 'completed');
    assert.equal(payments.netFor(booked.code), booked.reservation.total.amount);
  });

  it('replays a step sent again with the same Idempotency-Key, charging once', async (ctx) => {
    const payments = recordingPayments();
    const { t, hotel } = await startCheckinApp(ctx, { payments: payments.provider });
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    const key = { 'idempotency-key': 'checkin-guest-1' };
    const first = await submitStep(t, id, 'guest_details', GUEST_DETAILS, key);
    assert.equal(first.statusCode, 200, first.body);
    const replay = await submitStep(t, id, 'guest_details', GUEST_DETAILS, key);
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, first.body);
    assertProblem(
      await submitStep(t, id, 'guest_details', { ...GUEST_DETAILS, firstName: 'Other' }, key),
      422,
      'idempotency_key_reused',
    );

    await stepOk(t, id, 'identity_document', identityDocument(booked.checkOut));
    await stepOk(t, id, 'signature', SIGNATURE);
    const payKey = { 'idempotency-key': 'checkin-pay-1' };
    const paid = await submitStep(t, id, 'payment', { token: 'tok_visa' }, payKey);
    assert.equal(paid.statusCode, 200, paid.body);
    const paidAgain = await submitStep(t, id, 'payment', { token: 'tok_visa' }, payKey);
    assert.equal(paidAgain.statusCode, 200);
    assert.equal(paidAgain.body, paid.body);
    assert.equal((await checkinPayments(t, booked.code)).length, 1);
    assert.equal(payments.netFor(booked.code), booked.reservation.total.amount);
  });

  it('keeps identity documents encrypted at rest and masked on the wire', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    await stepOk(t, id, 'guest_details', GUEST_DETAILS);
    const image = Buffer.concat([JPEG, Buffer.from('distinctive-image-content')]);
    const res = await submitStep(
      t,
      id,
      'identity_document',
      identityDocument(booked.checkOut, { image: dataUrl('image/jpeg', image) }),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.body.includes(DOCUMENT_NUMBER), false);
    assert.equal(res.body.includes('distinctive'), false);
    assert.equal((await getSession(t, id)).body.includes(DOCUMENT_NUMBER), false);

    const row = (await stepRows(t, booked.code)).find((r) => r.name === 'identity_document');
    assert.ok(row?.secret && row.attachment);
    const stored = Buffer.concat([
      Buffer.from(row.secret),
      Buffer.from(row.attachment),
      Buffer.from(JSON.stringify(row.data)),
    ]);
    assert.equal(stored.includes(DOCUMENT_NUMBER), false);
    assert.equal(stored.includes('distinctive-image-content'), false);
    assert.equal(stored.includes(image.toString('base64')), false);
    assert.equal(row.data.numberLast4, DOCUMENT_NUMBER.slice(-4));
  });
});

describe('step validation', () => {
  it('rejects malformed bodies and step data with JSON-pointer paths, changing nothing', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel, { adults: 2, children: [5] });
    const { id } = await openedSession(t, booked);
    const before = await snapshot(t, id);
    const rowsBefore = await stepRows(t, booked.code);
    const send = (body: unknown) =>
      t.inject({ method: 'POST', url: `/api/v1/checkin/sessions/${id}/step`, payload: body as object });

    assertInvalid(await send({ step: 'checkout', data: {} }), '/step');
    assertInvalid(await send({ data: {} }), '/step');
    assertInvalid(await send({ step: 'guest_details' }), '/data');
    assertInvalid(await send({ step: 'guest_details', data: [] }), '/data');
    assertInvalid(await send({ step: 'guest_details', data: GUEST_DETAILS, extra: 1 }), '/extra');
    assertInvalid(await send([1, 2]), '/');
    const empty = await t.inject({
      method: 'POST',
      url: `/api/v1/checkin/sessions/${id}/step`,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    assertInvalid(empty, '/');

    const { email: _, ...noEmail } = GUEST_DETAILS;
    assertInvalid(await submitStep(t, id, 'guest_details', noEmail), '/data/email');
    assertInvalid(
      await submitStep(t, id, 'guest_details', { ...GUEST_DETAILS, nickname: 'Ana' }),
      '/data/nickname',
    );
    assertInvalid(
      await submitStep(t, id, 'guest_details', {
        ...GUEST_DETAILS,
        dateOfBirth: '1988-02-30',
        nationality: 'pt',
        email: 'x',
      }),
      '/data/dateOfBirth',
      '/data/nationality',
      '/data/email',
    );
    assertInvalid(
      await submitStep(t, id, 'guest_details', {
        ...GUEST_DETAILS,
        nationality: 'XX',
        dateOfBirth: '2999-01-01',
      }),
      '/data/nationality',
      '/data/dateOfBirth',
    );
    assertInvalid(
      await submitStep(t, id, 'guest_details', {
        ...GUEST_DETAILS,
        arrivalTime: '25:00',
        address: { line1: 'x', city: 'y', postalCode: 'z' },
      }),
      '/data/arrivalTime',
      '/data/address/country',
    );
    assert.deepEqual(await snapshot(t, id), before);

    await stepOk(t, id, 'guest_details', GUEST_DETAILS);
    // Party of three: exactly two companions.
    assertInvalid(await submitStep(t, id, 'companions', { guests: [companion(1)] }), '/data/guests');
    assertInvalid(
      await submitStep(t, id, 'companions', { guests: [companion(1), { ...companion(2), age: 5 }] }),
      '/data/guests/1/age',
    );
    assertInvalid(
      await submitStep(t, id, 'companions', {
        guests: [companion(1), { ...companion(2), nationality: 'ZZ' }],
      }),
      '/data/guests/1/nationality',
    );
    await stepOk(t, id, 'companions', { guests: [companion(1), companion(2)] });

    const doc = identityDocument(booked.checkOut);
    const beforeDocument = await snapshot(t, id);
    assertInvalid(
      await submitStep(t, id, 'identity_document', { ...doc, expiryDate: booked.checkIn }),
      '/data/expiryDate',
    );
    assertInvalid(
      await submitStep(t, id, 'identity_document', { ...doc, type: 'library_card' }),
      '/data/type',
    );
    assertInvalid(
      await submitStep(t, id, 'identity_document', { ...doc, image: 'https://example.com/x.jpg' }),
      '/data/image',
    );
    assertInvalid(
      await submitStep(t, id, 'identity_document', {
        ...doc,
        image: dataUrl('image/gif', Buffer.from('GIF89a')),
      }),
      '/data/image',
    );
    // Declared JPEG, but the bytes are a PNG (or not an image at all): type-checked by magic bytes.
    assertInvalid(
      await submitStep(t, id, 'identity_document', { ...doc, image: dataUrl('image/jpeg', PNG) }),
      '/data/image',
    );
    assertInvalid(
      await submitStep(t, id, 'identity_document', {
        ...doc,
        image: dataUrl('image/png', Buffer.from('hello world')),
      }),
      '/data/image',
    );
    assert.deepEqual(await snapshot(t, id), beforeDocument);
    await stepOk(t, id, 'identity_document', doc);

    assertInvalid(
      await submitStep(t, id, 'signature', { ...SIGNATURE, acceptTerms: false }),
      '/data/acceptTerms',
    );
    assertInvalid(
      await submitStep(t, id, 'signature', { ...SIGNATURE, signature: '<script>' }),
      '/data/signature',
    );
    assertInvalid(
      await submitStep(t, id, 'signature', { ...SIGNATURE, signature: dataUrl('image/jpeg', JPEG) }),
      '/data/signature',
    );
    await stepOk(t, id, 'signature', { ...SIGNATURE, signature: dataUrl('image/png', PNG) });

    assertInvalid(await submitStep(t, id, 'payment', { token: 'tok_unknown' }), '/data/token');
    assertInvalid(
      await submitStep(t, id, 'payment', { token: 'tok_visa', card: '4242424242424242' }),
      '/data/card',
    );
    const reservation = await reservationRow(t, booked.code);
    assert.equal(reservation.paid_amount, 0);
    assert.equal(statusOf(await snapshot(t, id), 'payment'), 'pending');
    assert.notDeepEqual(rowsBefore, await stepRows(t, booked.code));
  });

  it('limits bodies: 1 MiB for ordinary steps, 8 MiB for the identity document, 5 MiB per image', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    const big = 'x'.repeat(1.1 * MiB);
    assertProblem(
      await submitStep(t, id, 'guest_details', { ...GUEST_DETAILS, firstName: big }),
      413,
      'payload_too_large',
    );
    await stepOk(t, id, 'guest_details', GUEST_DETAILS);

    const doc = identityDocument(booked.checkOut);
    // A 4.5 MiB photo (6 MiB as base64) is accepted.
    const photo = Buffer.concat([JPEG, Buffer.alloc(4.5 * MiB, 1)]);
    const accepted = await submitStep(t, id, 'identity_document', {
      ...doc,
      image: dataUrl('image/jpeg', photo),
    });
    assert.equal(accepted.statusCode, 200, accepted.body.slice(0, 500));
    assert.equal(dataOf(accepted.json().session, 'identity_document').hasImage, true);

    // 5.5 MiB decoded fits the 8 MiB body but not the image limit.
    const tooBig = Buffer.concat([JPEG, Buffer.alloc(5.5 * MiB, 1)]);
    assertInvalid(
      await submitStep(t, id, 'identity_document', { ...doc, image: dataUrl('image/jpeg', tooBig) }),
      '/data/image',
    );
    // Over 8 MiB is refused before it is read.
    const huge = Buffer.concat([JPEG, Buffer.alloc(6.5 * MiB, 1)]);
    assertProblem(
      await submitStep(t, id, 'identity_document', { ...doc, image: dataUrl('image/jpeg', huge) }),
      413,
      'payload_too_large',
    );
    assert.equal(dataOf(await snapshot(t, id), 'identity_document').hasImage, true);
  });
});

describe('OpenAPI', () => {
  it('documents the check-in operations and every step body as a union told apart by step', async (ctx) => {
    const { t } = await startCheckinApp(ctx);
    const res = await t.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    const paths = doc.paths;
    assert.equal(paths['/api/v1/checkin/sessions'].post.operationId, 'openCheckinSession');
    assert.equal(paths['/api/v1/checkin/sessions/{session}'].get.operationId, 'getCheckinSession');
    assert.equal(paths['/.well-known/jwks.json'].get.operationId, 'getJwks');
    const step = paths['/api/v1/checkin/sessions/{session}/step'].post;
    assert.equal(step.operationId, 'submitCheckinStep');
    for (const status of ['200', '400', '402', '404', '409', '410', '413'])
      assert.ok(step.responses[status], status);
    const schema = step.requestBody.content['application/json'].schema;
    // No `discriminator`: it selects only $ref'd schemas (Redocly warns on inline ones); each
    // branch's `step` is a const instead.
    assert.equal(schema.discriminator, undefined);
    const branches = schema.anyOf ?? schema.oneOf;
    assert.deepEqual(
      branches.map((b: Json) => b.properties.step.const ?? b.properties.step.enum?.[0]),
      ['guest_details', 'companions', 'identity_document', 'signature', 'payment'],
    );
    for (const branch of branches) {
      assert.equal(branch.additionalProperties, false);
      assert.equal(branch.properties.data.additionalProperties, false);
      assert.ok(branch.examples?.length > 0, 'each step has an example');
    }
  });
});
