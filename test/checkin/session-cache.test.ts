/**
 * Sessions held in memory (src/checkin/session-cache.ts): a read never answers a session older
 * than the database's. On PostgreSQL two apps (two processes' worth: each its own pool and
 * memory) share one database: a read through B after a write through A, or by SQL alone (another
 * writer: a purge, an operator's change), shows the write. On the embedded engine, writes through
 * the app and by SQL on its database.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { cancel } from '../booking/helpers.ts';
import { statementCounter } from '../helpers/statement-counter.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  bookStay,
  GUEST_DETAILS,
  getSession,
  openedSession,
  startCheckinApp,
  statusOf,
  stepOk,
} from './helpers.ts';

const postgres = Boolean(process.env.DATABASE_URL);

async function read(t: TestApp, id: string) {
  const res = await getSession(t, id);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

describe('check-in sessions held in memory', () => {
  it('are read again after any write through another app on the same database', {
    skip: postgres ? false : 'needs PostgreSQL: two apps share one database only there',
  }, async (ctx) => {
    const env = { DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    const counter = statementCounter();
    const { t: a, hotel } = await startCheckinApp(ctx, { env });
    const b = await startTestApp(ctx, { hotels: [hotel], env, wrapDb: counter.wrap });
    const booked = await bookStay(a, hotel);
    const { id } = await openedSession(a, booked);

    // B reads (and holds) the session, then answers it again with one narrow statement.
    const first = await read(b, id);
    assert.equal(statusOf(first.session, 'guest_details'), 'pending');
    const again = await counter.count(() => getSession(b, id));
    assert.equal(again.result.body, JSON.stringify(first));
    assert.equal(again.statements.length, 1, again.statements.join('\n'));

    // A step through A: B's next read shows it, signed anew.
    await stepOk(a, id, 'guest_details', GUEST_DETAILS);
    const stepped = await read(b, id);
    assert.equal(statusOf(stepped.session, 'guest_details'), 'completed');
    assert.notEqual(stepped.signature, first.signature);
    assert.deepEqual(stepped.session, (await read(a, id)).session);

    // A write by SQL alone to a step (as the identity purge makes), then to the reservation.
    await a.db.query(
      `UPDATE checkin_steps SET data = '{"purged":true}'::jsonb
       WHERE name = 'guest_details' AND session_id = (SELECT s.id FROM checkin_sessions s
         JOIN reservations r ON r.hotel_id = s.hotel_id AND r.id = s.reservation_id WHERE r.code = $1)`,
      [booked.code],
    );
    const purged = await read(b, id);
    assert.deepEqual(purged.session.steps.find((s: { name: string }) => s.name === 'guest_details').data, {
      purged: true,
    });
    await a.db.query(
      `UPDATE reservations SET guest = jsonb_set(guest, '{firstName}', '"Beatriz"') WHERE code = $1`,
      [booked.code],
    );
    assert.equal((await read(b, id)).session.reservation.guestName, 'Beatriz Silva');

    // The reservation cancelled through A: B shows the session cancelled.
    assert.equal((await cancel(a, booked.code, booked.token)).statusCode, 200);
    const cancelled = await read(b, id);
    assert.equal(cancelled.session.status, 'cancelled');
    assert.equal(cancelled.session.reservation.status, 'cancelled');
  });

  it('are read again after a write by SQL to the session, its steps or its reservation', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    const first = await read(t, id);
    assert.equal((await read(t, id)).signature, first.signature);

    await t.db.query(
      `UPDATE checkin_steps SET status = 'completed'
       WHERE name = 'guest_details' AND session_id = (SELECT s.id FROM checkin_sessions s
         JOIN reservations r ON r.hotel_id = s.hotel_id AND r.id = s.reservation_id WHERE r.code = $1)`,
      [booked.code],
    );
    const stepped = await read(t, id);
    assert.equal(statusOf(stepped.session, 'guest_details'), 'completed');

    await t.db.query(
      `UPDATE reservations SET guest = jsonb_set(guest, '{firstName}', '"Beatriz"') WHERE code = $1`,
      [booked.code],
    );
    assert.equal((await read(t, id)).session.reservation.guestName, 'Beatriz Silva');

    await t.db.query(
      `UPDATE checkin_sessions SET status = 'completed', completed_at = updated_at
       WHERE reservation_id = (SELECT id FROM reservations WHERE code = $1)`,
      [booked.code],
    );
    assert.equal((await read(t, id)).session.status, 'completed');
  });
});
