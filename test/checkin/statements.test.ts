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

/** Statements sent to the database for one request, BEGIN and COMMIT included. */
function atMost(statements: string[], budget: number, what: string): void {
  assert.ok(
    statements.length <= budget,
    `${what}: ${statements.length} statements\n${statements.join('\n')}`,
  );
}

describe('check-in statement budget (issue 9)', () => {
  it('opens a session in at most 10 statements, reads it in 1, and takes a step in at most 7', async (ctx) => {
    const counter = statementCounter();
    const { t, hotel } = await startCheckinApp(ctx, { wrapDb: counter.wrap });
    const booked = await bookStay(t, hotel);
    const open = await counter.count(() => openSession(t, { reservationId: booked.code, lastName: 'Silva' }));
    assert.equal(open.result.statusCode, 201, open.result.body);
    // 10 since issue 37: the code names no hotel, so its hotel is read from reservation_codes
    // (sharded by code) before the reservation and its session (sharded by hotel): on Citus two
    // one-shard statements instead of one that asked every shard. No one statement can join the
    // two, sharded by different columns, and stay on one shard.
    atMost(open.statements, 10, 'opening a session by last name');
    const id = open.result.json().session.id;

    // One statement (the session, its steps and reservation) — and on the embedded engine, where
    // this process makes every write, none when nothing was written since it was last read; on
    // PostgreSQL one narrow one (the version of the rows this process holds: unchanged).
    const embedded = t.db.kind === 'embedded';
    const read = await counter.count(() => getSession(t, id));
    assert.equal(read.result.statusCode, 200, read.result.body);
    atMost(read.statements, 1, 'reading a session');
    const reread = await counter.count(() => getSession(t, id));
    assert.equal(reread.result.body, read.result.body);
    assert.equal(reread.statements.length, embedded ? 0 : 1, reread.statements.join('\n'));

    const step = await counter.count(() => stepOk(t, id, 'guest_details', GUEST_DETAILS));
    atMost(step.statements, 7, 'a step');
    // The session row is read once to reach it (from memory on the embedded engine: nothing was
    // written since the read above) and once, locked, in the step's transaction.
    const sessionReads = step.statements.filter((s) => /(FROM|JOIN) checkin_sessions\b/.test(s));
    assert.equal(sessionReads.length, embedded ? 1 : 2, step.statements.join('\n'));
    // The step wrote: the next read goes to the database again, and shows the step (on
    // PostgreSQL, the version first: it changed, so the session is read again).
    const afterStep = await counter.count(() => getSession(t, id));
    assert.equal(afterStep.statements.length, embedded ? 1 : 2, afterStep.statements.join('\n'));
    assert.equal(
      afterStep.result.json().session.steps.find((s: { name: string }) => s.name === 'guest_details').status,
      'completed',
    );

    const identity = await counter.count(() =>
      stepOk(t, id, 'identity_document', identityDocument(booked.checkOut)),
    );
    atMost(identity.statements, 7, 'the identity document step');
    await stepOk(t, id, 'signature', SIGNATURE);
    // The last step: the charge, its ledger row and event, the step, the completion and its event,
    // and the guest messages' wake-up, a statement of its own since Citus refuses a NOTIFY inside a
    // write routed to a shard (issue 37).
    const payment = await counter.count(() => stepOk(t, id, 'payment', { token: 'tok_visa' }));
    atMost(payment.statements, 13, 'the paying, completing step');

    const again = await counter.count(() =>
      openSession(t, { reservationId: booked.code }, { authorization: `Bearer ${booked.token}` }),
    );
    assert.equal(again.result.statusCode, 200, again.result.body);
    // The code's hotel, then the reservation with its session in one statement.
    atMost(again.statements, 2, 'opening the session again with the access token');
  });
});
