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

/** Statements sent to the database, BEGIN and COMMIT included. */
const atMost = (statements: string[], budget: number, what: string) =>
  assert.ok(
    statements.length <= budget,
    `${what}: ${statements.length} statements\n${statements.join('\n')}`,
  );

describe('check-in statement budget (issue 9)', () => {
  it('opens a session in at most 9 statements, reads it in 2, and takes a step in at most 7', async () => {
    const counter = statementCounter();
    const { t, hotel } = await startCheckinApp({ wrapDb: counter.wrap });
    try {
      const booked = await bookStay(t, hotel);
      counter.take();
      const opened = await openSession(t, { reservationId: booked.code, lastName: 'Silva' });
      assert.equal(opened.statusCode, 201, opened.body);
      atMost(counter.take(), 9, 'opening a session by last name');
      const id = opened.json().session.id;

      const read = await getSession(t, id);
      assert.equal(read.statusCode, 200, read.body);
      atMost(counter.take(), 2, 'reading a session');

      await stepOk(t, id, 'guest_details', GUEST_DETAILS);
      const step = counter.take();
      atMost(step, 7, 'a step');
      // The session row is read once to reach it and once, locked, in the step's transaction.
      assert.equal(step.filter((s) => /FROM checkin_sessions/.test(s)).length, 2, step.join('\n'));

      await stepOk(t, id, 'identity_document', identityDocument(booked.checkOut));
      atMost(counter.take(), 7, 'the identity document step');
      await stepOk(t, id, 'signature', SIGNATURE);
      counter.take();
      // The last step: the charge, its ledger row and event, the step, the completion and its event.
      await stepOk(t, id, 'payment', { token: 'tok_visa' });
      atMost(counter.take(), 12, 'the paying, completing step');

      const again = await openSession(
        t,
        { reservationId: booked.code },
        { authorization: `Bearer ${booked.token}` },
      );
      assert.equal(again.statusCode, 200, again.body);
      atMost(counter.take(), 2, 'opening the session again with the access token');
    } finally {
      await t.close();
    }
  });
});
