import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bearer } from '../booking/helpers.ts';
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
  it('contain neither document numbers, nor session ids, nor access tokens', async () => {
    const { t, hotel } = await startCheckinApp({ env: { LOG_LEVEL: 'trace' } });
    try {
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
    } finally {
      await t.close();
    }
  });
});
