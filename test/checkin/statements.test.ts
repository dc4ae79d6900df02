import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statementCounter } from '../helpers/statement-counter.ts';
import {
  bookStay,
  GUEST_DETAILS,
  getSession,
  identityDocument,
  openSession,
  SIGNATURE,
  startCheckinApp,
  stepOk,
} from './helpers.ts';

describe('check-in statement budget', () => {
  it('baseline', async () => {
    const counter = statementCounter();
    const { t, hotel } = await startCheckinApp({ wrapDb: counter.wrap });
    try {
      const booked = await bookStay(t, hotel);
      counter.take();
      const res = await openSession(t, { reservationId: booked.code, lastName: 'Silva' });
      assert.equal(res.statusCode, 201);
      const id = res.json().session.id;
      console.log('open', counter.take());
      await getSession(t, id);
      console.log('get', counter.take());
      await stepOk(t, id, 'guest_details', GUEST_DETAILS);
      console.log('step', counter.take());
      await stepOk(t, id, 'identity_document', identityDocument(booked.checkOut));
      await stepOk(t, id, 'signature', SIGNATURE);
      counter.take();
      await stepOk(t, id, 'payment', { token: 'tok_visa' });
      console.log('payment', counter.take());
      const again = await openSession(
        t,
        { reservationId: booked.code },
        { authorization: `Bearer ${booked.token}` },
      );
      assert.equal(again.statusCode, 200);
      console.log('reopen', counter.take());
    } finally {
      await t.close();
    }
  });
});
