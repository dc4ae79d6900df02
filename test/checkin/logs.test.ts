import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem, bearer } from '../booking/helpers.ts';
import {
  bookStay,
  CHECKIN,
  companion,
  DOCUMENT_NUMBER,
  dataUrl,
  GUEST_DETAILS,
  getSession,
  identityDocument,
  JPEG,
  openSession,
  SIGNATURE,
  startCheckinApp,
  submitStep,
} from './helpers.ts';

describe('logs of a check-in', () => {
  it('contain neither document numbers, nor session ids, nor access tokens', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx, { env: { LOG_LEVEL: 'trace' } });
    const booked = await bookStay(t, hotel, { adults: 2 });
    const opened = await openSession(t, { reservationId: booked.code }, bearer(booked.token));
    assert.equal(opened.statusCode, 201, opened.body);
    const id: string = opened.json().session.id;
    const again = await openSession(t, { reservationId: booked.code, lastName: 'Silva' });
    assert.equal(again.json().session.id, id);

    const image = dataUrl('image/jpeg', Buffer.concat([JPEG, Buffer.from('face-photo')]));
    const steps: Array<[string, unknown]> = [
      ['guest_details', GUEST_DETAILS],
      ['companions', { guests: [companion(1)] }],
      ['identity_document', identityDocument(booked.checkOut, { image })],
      // A correction, and an invalid submission that echoes nothing back into the logs.
      ['identity_document', identityDocument(booked.checkOut, { image, issuingCountry: 'XX' })],
      ['identity_document', identityDocument(booked.checkOut, { image })],
      ['signature', SIGNATURE],
      ['payment', { token: 'tok_declined' }],
      ['payment', { token: 'tok_visa' }],
    ];
    for (const [i, [step, data]] of steps.entries()) {
      await submitStep(t, id, step, data, { 'idempotency-key': `log-test-${i}` });
    }
    const done = await getSession(t, id);
    assert.equal(done.json().session.status, 'completed');
    // Requests with a session id in the URL that fail are logged too.
    await t.inject({ method: 'GET', url: `${CHECKIN}/sessions/${id}x` });
    await t.inject({ method: 'DELETE', url: `${CHECKIN}/sessions/${id}` });

    const logs = t.logs.join('\n');
    if (process.env.SHOW_LOGS) console.log(logs);
    assert.ok(logs.includes(`${id.slice(0, 8)}…`), 'request URLs are logged, with the session id masked');
    assert.equal(logs.includes(DOCUMENT_NUMBER), false, 'document number');
    assert.equal(logs.includes(id), false, 'session id');
    assert.equal(logs.includes(id.slice(4)), false, 'session id without its prefix');
    assert.equal(logs.includes(booked.token), false, 'access token');
    assert.equal(logs.includes(booked.token.slice(4)), false, 'access token without its prefix');
    assert.equal(logs.includes('face-photo'), false, 'document image');
    assert.equal(
      logs.includes(image.slice(image.indexOf(',') + 1, image.indexOf(',') + 17)),
      false,
      'image data',
    );
  });

  it('mask a session id however its URL is percent-encoded; such URLs are 404 (only canonical ids)', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx, { env: { LOG_LEVEL: 'info' } });
    const booked = await bookStay(t, hotel);
    const opened = await openSession(t, { reservationId: booked.code, lastName: 'Silva' });
    assert.equal(opened.statusCode, 201, opened.body);
    const id: string = opened.json().session.id;
    const rest = id.slice(4);
    const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
    const encodings = [
      `%63ks_${rest}`,
      `cks%5F${rest}`,
      `cks%5f${rest}`,
      `cks_${hex(rest[0] as string)}${rest.slice(1)}`,
      `cks_${rest.slice(0, -1)}${hex(rest.at(-1) as string)}`,
      [...id].map(hex).join(''),
      // Encoded twice or more (`%25` is `%`): a proxy or router that decodes again serves the id.
      `%2563ks_${rest}`,
      `%252563ks_${rest}`,
      `cks%255F${rest}`,
      `%25%36%33ks_${rest}`,
      `cks_${hex(rest[0] as string).replace('%', '%25')}${rest.slice(1)}`,
    ];
    for (const encoded of encodings) {
      assertProblem(
        await t.inject({ method: 'GET', url: `${CHECKIN}/sessions/${encoded}` }),
        404,
        'not_found',
      );
      const step = await t.inject({
        method: 'POST',
        url: `${CHECKIN}/sessions/${encoded}/step`,
        payload: { step: 'guest_details', data: GUEST_DETAILS },
      });
      assertProblem(step, 404, 'not_found');
    }
    // The canonical id still works, and nothing above changed the session.
    const canonical = await getSession(t, id);
    assert.equal(canonical.statusCode, 200, canonical.body);
    assert.equal(canonical.json().session.nextStep, 'guest_details');

    const logs = t.logs.join('\n');
    if (process.env.SHOW_LOGS) console.log(logs);
    assert.ok(logs.includes(`cks_${rest.slice(0, 4)}…`), 'the id is logged masked');
    assert.equal(logs.includes(rest), false, 'session id without its prefix');
    assert.equal(logs.includes(rest.slice(1)), false, 'session id less its first character');
    assert.equal(logs.includes(rest.slice(0, -1)), false, 'session id less its last character');
    for (const encoded of encodings) assert.equal(logs.includes(encoded), false, encoded);
  });
});
