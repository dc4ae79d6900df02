/**
 * The audit trail (API.md 12): each change writes one entry with its actor, changes and request id
 * in the change's transaction (a refused change writes none); the list's filters, paging, hotel
 * scoping and role access; retention.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auditRetentionJob } from '../../src/operator-access/audit-retention.ts';
import { cancel, type Json, stay } from '../booking/helpers.ts';
import { bookStay, onReservation } from '../booking/reservation-helpers.ts';
import { TestClock } from '../helpers/test-app.ts';
import { staffSessionOf } from '../staff/helpers.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from './helpers.ts';

describe('the audit trail', () => {
  let app: OperatorApp;
  let h1: string;
  let h2: string;
  let desk: { id: string; key: string };
  before(async () => {
    app = await startOperatorApp({ OPERATOR_AUTH_FAILURE_LIMIT: '1000000' });
    [h1, h2] = [app.hotels[0].id, app.hotels[1].id];
    desk = await makeKey(app, {
      scopes: ['reservations:read', 'reservations:write', 'inventory:write'],
      name: 'Desk PC',
    });
  });
  after(() => app.t.close());

  const read = (query: string, headers: Record<string, string> = auth(app.root)) =>
    app.t.inject({ method: 'GET', url: `${OPERATOR}/audit-log${query}`, headers });
  const entriesOf = async (query: string): Promise<Json[]> => {
    const res = await read(query);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  it('records a key’s modification once: actor, target, changed fields and request id', async () => {
    const booked = await bookStay(app.t, h1);
    const later = new Date(`${booked.checkOut}T00:00:00Z`);
    later.setUTCDate(later.getUTCDate() + 1);
    const checkOut = later.toISOString().slice(0, 10);
    const res = await onReservation(
      app.t,
      desk.key,
      'PATCH',
      booked.code,
      '',
      { checkOut, internalNotes: 'VIP' },
      {
        'x-request-id': 'audit-test-modify-1',
      },
    );
    assert.equal(res.statusCode, 200, res.body);
    const entries = await entriesOf(`?action=reservation.modified&actorId=${desk.id}`);
    const mine = entries.filter((e) => e.target.id === booked.code);
    assert.equal(mine.length, 1, JSON.stringify(entries));
    const [entry] = mine;
    assert.match(entry.id, /^aud_[0-9a-z]+$/);
    assert.deepEqual(entry.actor, { type: 'key', id: desk.id, name: 'Desk PC' });
    assert.equal(entry.hotelId, h1);
    assert.deepEqual(entry.target, { type: 'reservation', id: booked.code });
    assert.deepEqual(entry.changes.checkOut, [booked.checkOut, checkOut]);
    assert.deepEqual(entry.changes.internalNotes, [null, 'VIP']);
    assert.equal(entry.changes.checkIn, undefined, 'only the fields that changed');
    assert.equal(entry.requestId, 'audit-test-modify-1');
    assert.ok(Math.abs(Date.parse(entry.at) - Date.now()) < 60_000);

    // The guest's own creation and cancellation: the guest acts, named by the reservation.
    const created = await entriesOf(`?action=reservation.created&actorId=${booked.code}`);
    assert.equal(created.length, 1);
    assert.deepEqual(created[0].actor, { type: 'guest', id: booked.code, name: 'Guest' });
    const cancelled = await cancel(app.t, booked.code, booked.token, { reason: 'plans changed' });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const byGuest = await entriesOf(`?action=reservation.cancelled&actorId=${booked.code}`);
    assert.equal(byGuest.length, 1);
    assert.deepEqual(byGuest[0].changes.status, ['confirmed', 'cancelled']);
  });

  it('writes no entry for a refused change (same transaction)', async () => {
    const booked = await bookStay(app.t, h1);
    const count = async () => (await entriesOf(`?actorId=${desk.id}&limit=200`)).length;
    const beforeCount = await count();
    const stale = await onReservation(
      app.t,
      desk.key,
      'PATCH',
      booked.code,
      '',
      { internalNotes: 'x' },
      {
        'if-match': '"999"',
      },
    );
    assert.equal(stale.statusCode, 412, stale.body);
    const tooMany = await onReservation(app.t, desk.key, 'PATCH', booked.code, '', { rooms: 20 });
    assert.ok(tooMany.statusCode >= 400 && tooMany.statusCode < 500, tooMany.body);
    const refusedCalendar = await app.t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/hotels/${h1}/calendar`,
      headers: auth(desk.key),
      payload: {
        updates: [{ from: booked.checkIn, to: booked.checkIn, roomTypeIds: ['double'], set: { rooms: 0 } }],
      },
    });
    assert.equal(refusedCalendar.statusCode, 409, refusedCalendar.body);
    assert.equal(await count(), beforeCount);
    const made = await onReservation(app.t, desk.key, 'PATCH', booked.code, '', { internalNotes: 'ok' });
    assert.equal(made.statusCode, 200, made.body);
    assert.equal(await count(), beforeCount + 1, 'the test can see an entry when there is one');
  });

  it('records calendar updates, front-desk actions of a person, and key changes', async () => {
    const booked = await bookStay(app.t, h2, { fromToday: 0, nights: 1 });
    const calendar = await app.t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/hotels/${h2}/calendar`,
      headers: auth(desk.key),
      payload: { updates: [{ from: booked.checkOut, to: booked.checkOut, set: { stopSell: true } }] },
    });
    assert.equal(calendar.statusCode, 200, calendar.body);
    const [updated] = await entriesOf(`?action=calendar.updated&hotelId=${h2}&limit=1`);
    assert.deepEqual(updated.actor, { type: 'key', id: desk.id, name: 'Desk PC' });
    assert.deepEqual(updated.target, { type: 'calendar', id: h2 });
    assert.equal(updated.details.updateCount, 1);

    const cookie = await staffSessionOf(app.t, 'clerk@audit.test', 'front_desk');
    const arrived = await app.t.inject({
      method: 'POST',
      url: `${OPERATOR}/reservations/${booked.code}/arrive`,
      headers: { cookie, origin: new URL(app.t.config.publicBaseUrl).origin },
      payload: {},
    });
    assert.equal(arrived.statusCode, 200, arrived.body);
    const [arrival] = await entriesOf('?action=reservation.arrived&limit=1');
    assert.equal(arrival.actor.type, 'staff');
    assert.match(arrival.actor.id, /^usr_/);
    assert.equal(arrival.actor.name, 'Test Person');
    assert.deepEqual(arrival.changes.stayStatus, ['expected', 'in_house']);

    const key = await makeKey(app, { scopes: ['inventory:read'], hotelIds: [h2], name: 'Channel box' });
    const revoked = await app.t.inject({
      method: 'DELETE',
      url: `${OPERATOR}/keys/${key.id}`,
      headers: auth(app.root),
    });
    assert.equal(revoked.statusCode, 204);
    const [rev, made] = await entriesOf(`?hotelId=${h2}&limit=2&action=key.revoked`).then(async (r) => [
      r[0],
      (await entriesOf(`?hotelId=${h2}&limit=1&action=key.created`))[0],
    ]);
    assert.deepEqual(rev.target, { type: 'key', id: key.id });
    assert.deepEqual(made.target, { type: 'key', id: key.id });
    assert.deepEqual(made.details.scopes, ['inventory:read']);
  });

  it('records staff changes with the fields changed (keeping a hotel the person had)', async () => {
    const invited = await app.t.inject({
      method: 'POST',
      url: `${OPERATOR}/staff`,
      headers: auth(app.root),
      payload: { email: 'marta@audit.test', name: 'Marta', role: 'manager', hotelIds: [h1] },
    });
    assert.equal(invited.statusCode, 201, invited.body);
    const id = invited.json().id;
    const changed = await app.t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/staff/${id}`,
      headers: auth(app.root),
      payload: { role: 'accountant', hotelIds: [h1, h2] },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const [modified] = await entriesOf(`?action=staff.modified&limit=1`);
    assert.deepEqual(modified.target, { type: 'staff', id });
    assert.deepEqual(modified.changes, {
      role: ['manager', 'accountant'],
      hotelIds: [[h1], [h1, h2].sort()],
    });
    assert.equal(modified.hotelId, null, 'two hotels');
    assert.deepEqual(modified.hotelIds, [h1, h2].sort());
    const [made] = await entriesOf(`?action=staff.invited&limit=1`);
    assert.deepEqual(
      { target: made.target, hotelId: made.hotelId },
      { target: { type: 'staff', id }, hotelId: h1 },
    );
  });

  it('pages newest first with a signed cursor that keeps its filters', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await app.t.inject({
        method: 'PATCH',
        url: `${OPERATOR}/hotels/${h1}/calendar`,
        headers: auth(desk.key),
        payload: { updates: [{ from: '2030-01-01', to: '2030-01-01', set: { stopSell: i % 2 === 0 } }] },
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    const all = await entriesOf(`?action=calendar.updated&hotelId=${h1}&limit=200`);
    assert.ok(all.length >= 3);
    const times = all.map((e) => Date.parse(e.at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await read(
        cursor ? `?limit=1&cursor=${cursor}` : `?action=calendar.updated&hotelId=${h1}&limit=1`,
      );
      assert.equal(res.statusCode, 200, res.body);
      seen.push(...res.json().data.map((e: Json) => e.id));
      cursor = res.json().nextCursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      all.map((e) => e.id),
      'the pages hold the filtered list, each entry once',
    );

    const first = (await read(`?action=calendar.updated&limit=1`)).json().nextCursor;
    for (const query of [
      `?action=key.created&cursor=${first}`,
      '?cursor=nonsense',
      '?from=2027-02-30',
      '?from=2027-03-02&to=2027-03-01',
      '?action=Not%20an%20action',
      '?limit=0',
      '?other=1',
    ]) {
      const res = await read(query);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.equal(res.json().code, 'validation_error');
    }
    const today = new Date().toISOString().slice(0, 10);
    assert.ok((await entriesOf(`?from=${today}&to=${today}&limit=5`)).length > 0);
    assert.equal((await entriesOf('?from=2000-01-01&to=2000-12-31')).length, 0);
    assert.equal(
      (await entriesOf(`?to=${new Date(Date.now() - 3600_000).toISOString()}&action=calendar.updated`))
        .length,
      0,
    );
  });

  it('shows each caller only its hotels’ entries; accountants read it, the front desk does not', async () => {
    const h2Reader = await makeKey(app, { scopes: ['audit:read'], hotelIds: [h2] });
    const res = await read('?limit=200', auth(h2Reader.key));
    assert.equal(res.statusCode, 200, res.body);
    const data: Json[] = res.json().data;
    assert.ok(data.length > 0);
    for (const e of data) assert.deepEqual(e.hotelIds, [h2], JSON.stringify(e));
    assert.equal((await read(`?hotelId=${h1}`, auth(h2Reader.key))).statusCode, 404);
    const noScope = await makeKey(app, { scopes: ['keys:write', 'reservations:read'] });
    assert.equal((await read('', auth(noScope.key))).statusCode, 403);
    assert.equal((await read('', {})).statusCode, 401);

    const accountant = await staffSessionOf(app.t, 'books@audit.test', 'accountant', [h1]);
    const books = await read('?limit=200', { cookie: accountant });
    assert.equal(books.statusCode, 200, books.body);
    for (const e of books.json().data) assert.deepEqual(e.hotelIds, [h1]);
    const clerk = await staffSessionOf(app.t, 'clerk@audit.test', 'front_desk');
    const refused = await read('', { cookie: clerk });
    assert.equal(refused.statusCode, 403, refused.body);
    // No route changes or deletes an entry.
    for (const method of ['POST', 'PATCH', 'DELETE'] as const) {
      const r = await app.t.inject({
        method,
        url: `${OPERATOR}/audit-log`,
        headers: auth(app.root),
        payload: {},
      });
      assert.ok([404, 405].includes(r.statusCode), `${method}: ${r.statusCode}`);
    }
  });

  it('names each write’s own actor and request id when writes by two keys overlap with searches', async () => {
    // Each write's audit scope goes with its own request's context (audit-trail.ts): overlapping
    // writes, and the searches between them, must not lend one write's actor or id to another.
    const night = await makeKey(app, { scopes: ['inventory:write'], name: 'Night PC' });
    const writes = Array.from({ length: 24 }, (_, i) =>
      app.t.inject({
        method: 'PATCH',
        url: `${OPERATOR}/hotels/${h2}/calendar`,
        headers: { ...auth((i % 2 === 0 ? desk : night).key), 'x-request-id': `overlap-${i}` },
        payload: { updates: [{ from: '2031-03-01', to: '2031-03-02', set: { stopSell: i % 3 === 0 } }] },
      }),
    );
    const searches = Array.from({ length: 24 }, (_, i) =>
      app.t.inject({
        method: 'POST',
        url: '/api/v1/booking/availability/search',
        payload: { hotelId: h2, ...stay(app.t, 200, 1 + (i % 5)), adults: 2 },
      }),
    );
    const answers = await Promise.all([...writes, ...searches]);
    for (const res of answers) assert.equal(res.statusCode, 200, res.body);
    const entries = (await entriesOf(`?action=calendar.updated&hotelId=${h2}&limit=200`)).filter((e) =>
      String(e.requestId).startsWith('overlap-'),
    );
    assert.equal(entries.length, 24);
    for (const e of entries) {
      const i = Number(e.requestId.slice('overlap-'.length));
      assert.equal(e.actor.id, (i % 2 === 0 ? desk : night).id, JSON.stringify(e));
    }
  });

  it('keeps entries AUDIT_RETENTION_DAYS, then the housekeeping job deletes them', async () => {
    assert.equal(app.t.config.auditRetentionDays, 730);
    const total = async () =>
      Number((await app.t.db.query<{ n: string }>('SELECT count(*) AS n FROM audit_entries')).rows[0]?.n);
    const now = await total();
    assert.ok(now > 0);
    const clock = new TestClock();
    clock.advanceDays(729);
    assert.equal(await auditRetentionJob(730, clock).run(app.t.db), 0);
    assert.equal(await total(), now);
    clock.advanceDays(2);
    assert.equal(await auditRetentionJob(730, clock).run(app.t.db), now);
    assert.equal((await entriesOf('')).length, 0);
  });
});
