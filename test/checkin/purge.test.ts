import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { purgeIdentityData } from '../../src/checkin/commands/purge-identity-data.ts';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { addDays, type Json } from '../booking/helpers.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import type { TestApp } from '../helpers/test-app.ts';
import {
  bookStay,
  completeCheckin,
  DOCUMENT_NUMBER,
  dataOf,
  GUEST_DETAILS,
  getSession,
  moveClockTo,
  openedSession,
  startCheckinApp,
  statusOf,
  verifyWithJwks,
  wallTimeUtc,
} from './helpers.ts';

async function identityRow(t: TestApp, sessionId: string) {
  const { rows } = await t.db.query<{
    status: string;
    data: Json;
    secret: Uint8Array | null;
    attachment: Uint8Array | null;
    purged_at: Date | null;
  }>(
    `SELECT st.status, st.data, st.secret, st.attachment, st.purged_at
     FROM checkin_steps st JOIN checkin_sessions s ON s.hotel_id = st.hotel_id AND s.id = st.session_id
     WHERE s.token_hash = sha256($1::bytea) AND st.name = 'identity_document'`,
    [Buffer.from(sessionId)],
  );
  assert.ok(rows[0]);
  return rows[0];
}

/** The hotel's `guest_identity.purged` audit entries, newest first, read over HTTP with an audit key. */
async function purgeEntries(t: TestApp, hotelId: string): Promise<Json[]> {
  const { secret } = await t.db.transaction((tx) =>
    insertCliKey(tx, operatorKeyHasher(t.config.dataEncryptionKey as Buffer), {
      name: 'auditor',
      scopes: ['audit:read'],
      hotelIds: [hotelId],
    }),
  );
  const res = await t.inject({
    method: 'GET',
    url: `/api/v1/operator/audit-log?hotelId=${hotelId}&action=guest_identity.purged`,
    headers: { authorization: `Bearer ${secret}` },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

async function waitFor(condition: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('identity purge', () => {
  it('deletes document data IDENTITY_RETENTION_DAYS after check-out; the step shows { purged: true }', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx, { env: { IDENTITY_RETENTION_DAYS: '30' } });
    const booked = await bookStay(t, hotel, { adults: 2 });
    const { id } = await openedSession(t, booked);
    const done = await completeCheckin(t, id, booked, 1);
    const kept = await identityRow(t, id);
    assert.ok(kept.secret && kept.attachment && kept.purged_at === null);

    const due = wallTimeUtc(addDays(booked.checkOut, 30), hotel.checkOutTime ?? '11:00', hotel.timezone);
    moveClockTo(t, due, -60_000);
    await purgeIdentityData(t.db, t.clock.now(), 30);
    assert.ok((await identityRow(t, id)).secret, 'not purged a minute early');
    assert.deepEqual(await purgeEntries(t, hotel.id), [], 'a run that purged nothing writes no entry');

    moveClockTo(t, due, 60_000);
    assert.ok((await purgeIdentityData(t.db, t.clock.now(), 30)) >= 1);
    // One audit entry for the hotel (API.md 12): the count, never the document.
    const [entry, ...others] = await purgeEntries(t, hotel.id);
    assert.equal(others.length, 0);
    assert.deepEqual(entry?.actor, { type: 'system', id: 'system', name: 'Innkeep' });
    assert.deepEqual(entry?.target, { type: 'hotel', id: hotel.id });
    assert.equal(entry?.hotelId, hotel.id);
    assert.deepEqual(entry?.details, { documents: 1, retentionDays: 30 });
    assert.equal(JSON.stringify(entry).includes(DOCUMENT_NUMBER.slice(-4)), false);
    const purged = await identityRow(t, id);
    assert.equal(purged.status, 'completed');
    assert.deepEqual(purged.data, { purged: true });
    assert.equal(purged.secret, null);
    assert.equal(purged.attachment, null);
    assert.ok(purged.purged_at);
    // Nothing of the document is left anywhere in the session's rows.
    const { rows } = await t.db.query<{ dump: string }>(
      `SELECT string_agg(st::text, '') AS dump FROM checkin_steps st JOIN checkin_sessions s ON s.hotel_id = st.hotel_id AND s.id = st.session_id
       WHERE s.token_hash = sha256($1::bytea)`,
      [Buffer.from(id)],
    );
    assert.equal(rows[0]?.dump.includes(DOCUMENT_NUMBER), false);
    assert.equal(rows[0]?.dump.includes(DOCUMENT_NUMBER.slice(-4)), false);
    // Running it again purges nothing more, and writes no second entry.
    await purgeIdentityData(t.db, t.clock.now(), 30);
    assert.deepEqual((await identityRow(t, id)).data, { purged: true });
    assert.equal((await purgeEntries(t, hotel.id)).length, 1);

    // The session is past check-out (410); seen from before its expiry, it shows the purge.
    moveClockTo(t, done.session.expiresAt, -3600_000);
    const res = await getSession(t, id);
    assert.equal(res.statusCode, 200, res.body);
    const { session, signature } = res.json();
    assert.equal(statusOf(session, 'identity_document'), 'completed');
    assert.deepEqual(dataOf(session, 'identity_document'), { purged: true });
    assert.deepEqual(dataOf(session, 'guest_details'), GUEST_DETAILS);
    assert.equal(session.status, 'completed');
    assert.deepEqual((await verifyWithJwks(t, signature)).payload.session, session);
  });

  it('runs on a schedule inside the service (PURGE_INTERVAL_SECONDS)', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx, {
      env: { IDENTITY_RETENTION_DAYS: '0', PURGE_INTERVAL_SECONDS: '1' },
    });
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    await completeCheckin(t, id, booked);
    assert.ok((await identityRow(t, id)).secret);
    moveClockTo(t, wallTimeUtc(booked.checkOut, hotel.checkOutTime ?? '11:00', hotel.timezone), 1000);
    await waitFor(async () => (await identityRow(t, id)).secret === null);
    assert.deepEqual((await identityRow(t, id)).data, { purged: true });
    const [entry] = await purgeEntries(t, hotel.id);
    assert.deepEqual(entry?.actor, { type: 'system', id: 'system', name: 'Innkeep' });
    assert.deepEqual(entry?.details, { documents: 1, retentionDays: 0 });
  });
});
