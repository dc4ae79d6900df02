/**
 * iCal feeds' secrets and limits (API.md 11.1, docs/api.md §9.1) through HTTP on the real engine:
 * export tokens with their `ict_` prefix, masked in the logs (bare tokens of older feeds still
 * answer); import URLs encrypted at rest and shown by host only (rows of before read and sealed);
 * one import per URL and at most 10 per room type; at most 5 manual syncs a minute; a feed of more
 * than 10,000 events failing its fetch with the last good holds kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sealLegacyUrls } from '../../src/channels/ical/commands/seal-legacy-urls.ts';
import { createEncryptor } from '../../src/infra/crypto/encryption.ts';
import { hashSecret } from '../../src/infra/crypto/tokens.ts';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { addDays, type Json, localToday, roomsLeft } from '../booking/helpers.ts';
import type { OperatorApp } from '../operator-access/helpers.ts';
import type { FeedServer } from './feed-server.ts';
import { freshHotel as freshHotelIn, type IcalBench, operatorCalls, startIcalBench } from './ical-bench.ts';

describe('iCal feeds: secrets and limits', () => {
  let app: OperatorApp;
  let platform: FeedServer;
  let bench: IcalBench;
  before(async () => {
    // Logs at `info`, so the request lines a feed fetch writes are there to read.
    bench = await startIcalBench({ LOG_LEVEL: 'info' });
    ({ app, platform } = bench);
  });
  after(() => bench.close());

  const freshHotel = () => freshHotelIn(app);
  const night = (n: number) => addDays(localToday(app.t), n);
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    operatorCalls(app)(method, url, payload);
  const createImport = (hotelId: string, url: string, roomTypeId = 'suite') =>
    call('POST', `/hotels/${hotelId}/ical-imports`, { roomTypeId, url, name: 'Platform' });

  it('gives export tokens the ict_ prefix and masks them in the logs; a bare token of before still answers', async () => {
    const hotel = await freshHotel();
    const created = await call('POST', `/hotels/${hotel.id}/ical-feeds`, { roomTypeId: 'suite' });
    assert.equal(created.statusCode, 201, created.body);
    const url: string = created.json().url;
    const token = /\/api\/v1\/ical\/(ict_[0-9a-z]{32})\.ics$/.exec(url)?.[1];
    assert.ok(token, url);
    const fetched = await app.t.inject({ method: 'GET', url: new URL(url).pathname });
    assert.equal(fetched.statusCode, 200, fetched.body);
    const logged = app.t.logs.filter((line) => line.includes('/api/v1/ical/'));
    assert.ok(logged.length > 0, 'the fetch was logged');
    for (const line of logged) assert.ok(!line.includes(token), `token in clear: ${line}`);
    assert.ok(
      logged.some((line) => line.includes(`${token.slice(0, 8)}…`)),
      'the prefix and four characters are kept to correlate requests',
    );

    // A feed made before the prefix: its bare token (in a platform's settings) keeps working.
    const bare = 'k'.repeat(32);
    await app.t.db.query(
      `INSERT INTO ical_feeds (id, hotel_id, room_type_id, token_hash) VALUES ($1, $2, 'suite', $3)`,
      [`icf_bare${hotel.id.slice(-8)}`, hotel.id, hashSecret(bare)],
    );
    const old = await app.t.inject({ method: 'GET', url: `/api/v1/ical/${bare}.ics` });
    assert.equal(old.statusCode, 200, old.body);
    assert.match(old.body, /^BEGIN:VCALENDAR/);
  });

  it('keeps import URLs encrypted and shows their host only; rows of before are read, then sealed', async () => {
    const hotel = await freshHotel();
    platform.status = 200;
    platform.events([['enc@platform', night(5), night(6)]]);
    const secretUrl = `${platform.url}?s=PlatformSecret42`;
    const created = await createImport(hotel.id, secretUrl);
    assert.equal(created.statusCode, 201, created.body);
    const body = created.json();
    assert.equal(body.lastFetch.status, 'ok', created.body);
    assert.equal(body.host, new URL(platform.url).host);
    assert.equal(body.url, undefined);
    assert.ok(!created.body.includes('PlatformSecret42'));
    const listed = await call('GET', `/hotels/${hotel.id}/ical-imports`);
    assert.ok(!listed.body.includes('PlatformSecret42'), listed.body);
    assert.equal(listed.json().data[0].host, new URL(platform.url).host);

    const raw = async (id: string) =>
      (
        await app.t.db.query<{
          url: string | null;
          url_ciphertext: Uint8Array | null;
          url_host: string | null;
        }>('SELECT url, url_ciphertext, url_host FROM ical_imports WHERE id = $1', [id])
      ).rows[0];
    const stored = await raw(body.id);
    assert.equal(stored?.url, null);
    assert.ok(stored?.url_ciphertext && stored.url_ciphertext.length > 16);
    assert.ok(!Buffer.from(stored.url_ciphertext).toString('latin1').includes('PlatformSecret42'));
    assert.equal(stored.url_host, new URL(platform.url).host);
    const synced = await call('POST', `/ical-imports/${body.id}/sync`);
    assert.equal(synced.json().lastFetch.status, 'ok', synced.body);

    // A row stored before encryption: listed by its host, fetched, then sealed like the others.
    const legacyId = `ici_old${hotel.id.slice(-8)}`;
    await app.t.db.query(
      `INSERT INTO ical_imports (id, hotel_id, room_type_id, url, name) VALUES ($1, $2, 'double', $3, 'Old')`,
      [legacyId, hotel.id, `${platform.url}?s=OldSecret7`],
    );
    const before = await call('GET', `/hotels/${hotel.id}/ical-imports`);
    assert.ok(!before.body.includes('OldSecret7'), before.body);
    assert.equal(before.json().data.find((i: Json) => i.id === legacyId).host, new URL(platform.url).host);
    assert.equal((await call('POST', `/ical-imports/${legacyId}/sync`)).json().lastFetch.status, 'ok');
    const key = app.t.config.dataEncryptionKey as Buffer;
    const deps = { db: app.t.db, encryptor: createEncryptor(key), operatorKeyHasher: operatorKeyHasher(key) };
    assert.ok((await sealLegacyUrls(deps)) >= 1);
    const sealed = await raw(legacyId);
    assert.equal(sealed?.url, null);
    assert.ok(
      !Buffer.from(sealed?.url_ciphertext as Uint8Array)
        .toString('latin1')
        .includes('OldSecret7'),
    );
    const after = await call('POST', `/ical-imports/${legacyId}/sync`);
    assert.equal(after.json().lastFetch.status, 'ok', after.body);
    // Sealed, it is found as the same URL as any other.
    const again = await createImport(hotel.id, `${platform.url}?s=OldSecret7`, 'double');
    assert.equal(again.statusCode, 400, again.body);
  });

  it('refuses the same URL twice for a room type, and an 11th import of a room type', async () => {
    const hotel = await freshHotel();
    platform.status = 200;
    platform.events([]);
    const first = await createImport(hotel.id, `${platform.url}?n=0`);
    assert.equal(first.statusCode, 201, first.body);
    const same = await createImport(hotel.id, `${platform.url}?n=0`);
    assert.equal(same.statusCode, 400, same.body);
    assert.equal(same.json().code, 'validation_error');
    assert.equal(same.json().errors[0].path, '/url');
    assert.match(same.json().errors[0].message, new RegExp(first.json().id));
    // Another room type may import the same calendar.
    assert.equal((await createImport(hotel.id, `${platform.url}?n=0`, 'double')).statusCode, 201);
    for (let n = 1; n < 10; n++) {
      const made = await createImport(hotel.id, `${platform.url}?n=${n}`);
      assert.equal(made.statusCode, 201, made.body);
    }
    const eleventh = await createImport(hotel.id, `${platform.url}?n=10`);
    assert.equal(eleventh.statusCode, 400, eleventh.body);
    assert.equal(eleventh.json().errors[0].path, '/roomTypeId');
    assert.match(eleventh.json().errors[0].message, /10 imports/);
    const listed = await call('GET', `/hotels/${hotel.id}/ical-imports`);
    assert.equal(listed.json().data.filter((i: Json) => i.roomTypeId === 'suite').length, 10);
    // Deleting one makes room for another.
    assert.equal((await call('DELETE', `/ical-imports/${first.json().id}`)).statusCode, 204);
    assert.equal((await createImport(hotel.id, `${platform.url}?n=10`)).statusCode, 201);
  });

  it('answers 429 with Retry-After to a sixth sync of an import within a minute', async () => {
    const hotel = await freshHotel();
    platform.status = 200;
    platform.events([]);
    const created = await createImport(hotel.id, `${platform.url}?sync`);
    assert.equal(created.statusCode, 201, created.body);
    const fetchesBefore = platform.requests;
    for (let n = 0; n < 5; n++) {
      const synced = await call('POST', `/ical-imports/${created.json().id}/sync`);
      assert.equal(synced.statusCode, 200, synced.body);
    }
    const refused = await call('POST', `/ical-imports/${created.json().id}/sync`);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(refused.json().code, 'rate_limited');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    assert.match(String(refused.headers['ratelimit-policy']), /"ical-sync";q=5;w=60/);
    assert.equal(platform.requests, fetchesBefore + 5, 'the refused sync fetched nothing');
  });

  it('fails the fetch of a feed of more than 10,000 events and keeps the last good holds', async () => {
    const hotel = await freshHotel();
    platform.status = 200;
    platform.events([['good@platform', night(10), night(12)]]);
    const created = await createImport(hotel.id, `${platform.url}?big`);
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(10), night(12)), 1);
    platform.events(
      Array.from({ length: 10_001 }, (_, i) => [
        `big-${i}@platform`,
        night(20 + (i % 300)),
        night(21 + (i % 300)),
      ]),
    );
    const synced = await call('POST', `/ical-imports/${created.json().id}/sync`);
    assert.equal(synced.statusCode, 200, synced.body);
    const last = synced.json().lastFetch;
    assert.equal(last.status, 'failed');
    assert.match(last.error, /too many events/);
    assert.equal(last.events, 1, 'the last good fetch’s count stays');
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(10), night(12)), 1);
    assert.equal(
      await roomsLeft(app.t, hotel.id, 'suite', night(20), night(21)),
      2,
      'nothing of the big feed held',
    );
    const { rows } = await app.t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ical_holds WHERE import_id = $1',
      [created.json().id],
    );
    assert.equal(rows[0]?.n, 1);
  });
});
