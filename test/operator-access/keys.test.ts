import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCOPES } from '../../src/operator-access/scopes.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from './helpers.ts';

describe('operator keys over HTTP', () => {
  let app: OperatorApp;
  let h1: string;
  let h2: string;
  before(async () => {
    app = await startOperatorApp({ OPERATOR_AUTH_FAILURE_LIMIT: '1000000' });
    [h1, h2] = [app.hotels[0].id, app.hotels[1].id];
  });
  after(() => app.t.close());

  const post = (by: string, payload: object, headers: Record<string, string> = {}) =>
    app.t.inject({ method: 'POST', url: `${OPERATOR}/keys`, headers: { ...auth(by), ...headers }, payload });
  const list = async (by: string) => {
    const response = await app.t.inject({ method: 'GET', url: `${OPERATOR}/keys`, headers: auth(by) });
    assert.equal(response.statusCode, 200, response.body);
    return response;
  };

  it('creates a key shown once, stored only as a hash, listed without its secret', async () => {
    const created = await post(app.root, {
      name: 'Front desk',
      scopes: ['reservations:read'],
      hotelIds: [h1],
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.headers['cache-control'], 'no-store');
    const body = created.json();
    assert.match(body.key, /^ik_[0-9a-z]{52}$/, '256 random bits');
    assert.match(body.id, /^key_[0-9a-z]+$/);
    assert.deepEqual(
      {
        name: body.name,
        scopes: body.scopes,
        hotelIds: body.hotelIds,
        revokedAt: body.revokedAt,
      },
      {
        name: 'Front desk',
        scopes: ['reservations:read'],
        hotelIds: [h1],
        revokedAt: null,
      },
    );
    assert.match(body.createdBy, /^key_/, 'the id of the key that made it');
    const listed = await list(app.root);
    assert.equal(listed.body.includes(body.key), false);
    assert.equal(listed.body.includes(body.key.slice(3)), false);
    const entry = listed.json().data.find((k: { id: string }) => k.id === body.id);
    assert.deepEqual(Object.keys(entry).sort(), [
      'createdAt',
      'createdBy',
      'hotelIds',
      'id',
      'name',
      'revokedAt',
      'scopes',
    ]);

    const { rows } = await app.t.db.query<Record<string, unknown>>(
      'SELECT * FROM operator_keys WHERE public_id = $1',
      [body.id],
    );
    const stored = JSON.stringify(rows, (_k, v) =>
      v?.type === 'Buffer' ? Buffer.from(v.data).toString('hex') : v,
    );
    assert.equal(stored.includes(body.key.slice(3)), false, 'the key is not stored');
    assert.equal(Buffer.from(rows[0]?.key_hash as Uint8Array).length, 32, 'an HMAC-SHA256');

    const hotels = await app.t.inject({ method: 'GET', url: `${OPERATOR}/hotels`, headers: auth(body.key) });
    assert.deepEqual(
      hotels.json().data.map((h: { id: string }) => h.id),
      [h1],
    );
  });

  it('never grants a scope or hotel its creator lacks', async () => {
    const limited = await makeKey(app, { scopes: ['keys:write', 'reservations:read'], hotelIds: [h1] });
    const refused = [
      { name: 'more scope', scopes: ['inventory:write'], hotelIds: [h1] },
      { name: 'other hotel', scopes: ['reservations:read'], hotelIds: [h2] },
      { name: 'both hotels', scopes: ['reservations:read'], hotelIds: [h1, h2] },
      { name: 'every hotel', scopes: ['reservations:read'] },
      { name: 'every hotel', scopes: ['reservations:read'], hotelIds: null },
    ];
    for (const payload of refused) {
      const response = await post(limited.key, payload);
      assert.equal(response.statusCode, 403, `${payload.name}: ${response.body}`);
      assert.equal(response.json().code, 'forbidden');
    }
    const allowed = await post(limited.key, {
      name: 'subset',
      scopes: ['reservations:read'],
      hotelIds: [h1],
    });
    assert.equal(allowed.statusCode, 201, allowed.body);
    assert.equal(allowed.json().createdBy, limited.id);
  });

  it('validates the body: unknown hotel, unknown scope, no scope, unknown field', async () => {
    const cases: Array<[object, string]> = [
      [{ name: 'x', scopes: ['reservations:read'], hotelIds: ['no-such-hotel'] }, '/hotelIds/0'],
      [{ name: 'x', scopes: ['admin'] }, '/scopes/0'],
      [{ name: 'x', scopes: [] }, '/scopes'],
      [{ name: '', scopes: ['keys:write'] }, '/name'],
      [{ name: 'x', scopes: ['keys:write'], extra: true }, '/extra'],
    ];
    for (const [payload, path] of cases) {
      const response = await post(app.root, payload);
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(
        response.json().errors.some((e: { path: string }) => e.path === path),
        `${path}: ${response.body}`,
      );
    }
  });

  it('lists to a hotel-limited key only the keys within its hotels', async () => {
    const mine = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [h1] });
    const theirs = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [h2] });
    const everywhere = await makeKey(app, { scopes: ['reservations:read'] });
    const limited = await makeKey(app, { scopes: ['keys:write', 'reservations:read'], hotelIds: [h1] });
    const ids = (await list(limited.key)).json().data.map((k: { id: string }) => k.id);
    assert.ok(ids.includes(mine.id) && ids.includes(limited.id));
    assert.equal(ids.includes(theirs.id) || ids.includes(everywhere.id) || ids.includes(app.root), false);
    const all = (await list(app.root)).json().data.map((k: { id: string }) => k.id);
    for (const k of [mine, theirs, everywhere, limited]) assert.ok(all.includes(k.id));
  });

  it('revokes: 204, then the key is 401; unknown 404; more than the caller 403; invisible 404', async () => {
    const limited = await makeKey(app, { scopes: ['keys:write', 'reservations:read'], hotelIds: [h1] });
    const stronger = await makeKey(app, { scopes: ['inventory:write'], hotelIds: [h1] });
    const elsewhere = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [h2] });
    const target = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [h1] });
    const del = (id: string, by = limited.key) =>
      app.t.inject({ method: 'DELETE', url: `${OPERATOR}/keys/${id}`, headers: auth(by) });
    assert.equal((await del(stronger.id)).statusCode, 403);
    assert.equal((await del(elsewhere.id)).statusCode, 404);
    assert.equal((await del('key_doesnotexist')).statusCode, 404);
    assert.equal((await del(target.id)).statusCode, 204);
    assert.equal((await del(target.id)).statusCode, 204, 'revoking again changes nothing');
    const refused = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/hotels`,
      headers: auth(target.key),
    });
    assert.equal(refused.statusCode, 401);
    const listed = (await list(app.root)).json().data.find((k: { id: string }) => k.id === target.id);
    assert.ok(listed.revokedAt);
  });

  it('replays a creation sent again with the same Idempotency-Key, making no second key', async () => {
    const payload = { name: 'Retried', scopes: ['inventory:read'] };
    const first = await post(app.root, payload, { 'idempotency-key': 'create-retried' });
    const again = await post(app.root, payload, { 'idempotency-key': 'create-retried' });
    assert.equal(first.statusCode, 201);
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().key, first.json().key);
    const named = (await list(app.root)).json().data.filter((k: { name: string }) => k.name === 'Retried');
    assert.equal(named.length, 1);
  });

  it('audits creations and revocations, newest first, in pages; a tampered cursor is 400', async () => {
    const admin = await makeKey(app, { scopes: [...SCOPES], hotelIds: [h2] });
    const made = await makeKey(app, { scopes: ['inventory:read'], hotelIds: [h2] }, admin.key);
    await app.t.inject({ method: 'DELETE', url: `${OPERATOR}/keys/${made.id}`, headers: auth(admin.key) });
    const page = (query: string) =>
      app.t.inject({ method: 'GET', url: `${OPERATOR}/audit-log${query}`, headers: auth(admin.key) });
    const first = await page('?limit=1');
    assert.equal(first.statusCode, 200, first.body);
    const [revoked] = first.json().data;
    assert.deepEqual(
      {
        actor: revoked.actor,
        action: revoked.action,
        hotelId: revoked.hotelId,
        hotelIds: revoked.hotelIds,
        target: revoked.target,
        details: revoked.details,
      },
      {
        actor: { type: 'key', id: admin.id, name: 'test key' },
        action: 'key.revoked',
        hotelId: h2,
        hotelIds: [h2],
        target: { type: 'key', id: made.id },
        details: { name: 'test key' },
      },
    );
    const second = await page(`?limit=1&cursor=${first.json().nextCursor}`);
    assert.equal(second.json().data[0].action, 'key.created');
    assert.equal(second.json().data[0].target.id, made.id);
    const rest = await page(`?limit=200&cursor=${second.json().nextCursor}`);
    const seen = [first, second, rest].flatMap((p) => p.json().data.map((e: { id: string }) => e.id));
    assert.equal(new Set(seen).size, seen.length, 'no entry twice');
    assert.equal(rest.json().nextCursor, null);
    for (const entry of rest.json().data)
      assert.deepEqual(entry.hotelIds, [h2], 'only entries within its hotels');
    assert.equal(
      JSON.stringify([first, second, rest].map((p) => p.json())).includes(made.key.slice(3)),
      false,
    );

    for (const query of [
      '?cursor=nonsense',
      '?cursor=WyJ4IiwieSJd',
      // A well-formed position the service did not sign: cursors are signed (the one codec).
      `?cursor=${Buffer.from(JSON.stringify({ v: 1, filters: {}, after: ['2026-01-01T00:00:00.000000Z', 'aud_abc'] })).toString('base64url')}`,
      '?limit=0',
      '?limit=201',
      '?limit=x',
      '?other=1',
    ]) {
      const response = await page(query);
      assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
      assert.equal(response.json().code, 'validation_error');
    }
  });
});
