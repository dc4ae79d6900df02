import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { createEncryptor } from '../../src/infra/crypto/encryption.ts';
import { createLogger } from '../../src/infra/logger.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { keyringOf, SigningKeyStore } from '../../src/signing/signing-key-store.ts';
import { sharedSchemaCompilers } from '../helpers/schema-compilers.ts';
import type { TestApp } from '../helpers/test-app.ts';
import {
  bookStay,
  fetchJwks,
  GUEST_DETAILS,
  getSession,
  moveClockTo,
  openedSession,
  startCheckinApp,
  stepOk,
  verifyWithJwks,
} from './helpers.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Another process of the same deployment: a second runtime on the same database and key. */
function anotherProcess(t: TestApp, hotel: HotelDef): Promise<Runtime> {
  return createRuntime(t.config, createLogger('silent'), {
    db: t.db,
    hotels: parseCatalog({ hotels: [hotel] }).hotels,
    clock: t.clock,
    schemaCompilers: sharedSchemaCompilers,
  });
}

async function jwksOf(app: Runtime['app']): Promise<JSONWebKeySet> {
  const res = await app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

describe('session signatures', () => {
  it('are compact EdDSA JWS over exactly { iss, sub, iat, exp, session }, verifiable with the JWKS', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const { id, body: opened } = await openedSession(t, booked);
    const checks = [
      opened,
      await stepOk(t, id, 'guest_details', GUEST_DETAILS),
      (await getSession(t, id)).json(),
    ];
    for (const { session, signature } of checks) {
      assert.match(signature, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      const { payload, protectedHeader } = await verifyWithJwks(t, signature);
      assert.equal(protectedHeader.alg, 'EdDSA');
      assert.equal(protectedHeader.typ, 'JWT');
      assert.equal(typeof protectedHeader.kid, 'string');
      assert.deepEqual(Object.keys(payload).sort(), ['exp', 'iat', 'iss', 'session', 'sub']);
      assert.equal(payload.iss, t.config.publicBaseUrl);
      assert.equal(payload.sub, session.id);
      assert.equal(payload.exp, Math.floor(Date.parse(session.expiresAt) / 1000));
      assert.ok(Math.abs((payload.iat as number) - t.clock.now().getTime() / 1000) < 60);
      assert.deepEqual(payload.session, session);
    }
  });

  it('are made once per version of a session: an unchanged session keeps its JWS, a change gets a new one', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    const first = (await getSession(t, id)).json();
    t.clock.advance(90_000);
    const second = (await getSession(t, id)).json();
    assert.equal(second.signature, first.signature);
    // `iat` is the time of the version signed: the session's last change.
    const { payload } = await verifyWithJwks(t, second.signature);
    assert.equal(payload.iat, Math.floor(Date.parse(first.session.updatedAt) / 1000));

    const stepped = await stepOk(t, id, 'guest_details', GUEST_DETAILS);
    assert.notEqual(stepped.signature, first.signature);
    await verifyWithJwks(t, stepped.signature);
    const after = (await getSession(t, id)).json();
    assert.equal(after.signature, stepped.signature);
    assert.deepEqual(after.session, stepped.session);
  });

  it('are never answered from the cache with a key that is no longer current', async (ctx) => {
    const { t } = await startCheckinApp(ctx);
    assert.ok(t.config.dataEncryptionKey);
    const keys = await SigningKeyStore.open({
      db: t.db,
      encryptor: createEncryptor(t.config.dataEncryptionKey),
      clock: t.clock,
      keyring: keyringOf(t.config.dataEncryptionKey),
    });
    const payload = {
      iss: 'test',
      sub: 'cks_x',
      iat: 1,
      exp: Math.floor(t.clock.now().getTime() / 1000) + 600,
    };
    const before = await keys.signOnce('session:1', payload);
    assert.equal(await keys.signOnce('session:1', payload), before);
    assert.notEqual(await keys.signOnce('session:1', { ...payload, iat: 2 }), before);
    const { kid } = await keys.rotate();
    const rotated = await keys.signOnce('session:1', payload);
    assert.equal(decodeProtectedHeader(rotated).kid, kid);
    assert.notEqual(decodeProtectedHeader(before).kid, kid);
  });

  it('publish public keys only, cacheable', async (ctx) => {
    const { t } = await startCheckinApp(ctx);
    const res = await t.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.match(String(res.headers['cache-control']), /max-age=\d+/);
    const jwks = res.json();
    assert.ok(jwks.keys.length >= 1);
    for (const key of jwks.keys) {
      assert.deepEqual(Object.keys(key).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x']);
      assert.equal(key.kty, 'OKP');
      assert.equal(key.crv, 'Ed25519');
      assert.equal(key.alg, 'EdDSA');
      assert.equal(key.use, 'sig');
      assert.equal(Buffer.from(key.x, 'base64url').length, 32);
    }
    const etag = String(res.headers.etag);
    const cached = await t.inject({
      method: 'GET',
      url: '/.well-known/jwks.json',
      headers: { 'if-none-match': etag },
    });
    assert.equal(cached.statusCode, 304);
    assert.equal(cached.body, '');
  });

  it('fail verification when the payload or the header is tampered with', async (ctx) => {
    const { t, hotel } = await startCheckinApp(ctx);
    const booked = await bookStay(t, hotel);
    const { body } = await openedSession(t, booked);
    const jwks = await fetchJwks(t);
    await verifyWithJwks(t, body.signature, jwks);
    const [header, payload, sig] = body.signature.split('.');

    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    claims.session.reservation.balanceDue.amount = 0;
    await assert.rejects(verifyWithJwks(t, `${header}.${b64(claims)}.${sig}`, jwks), {
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });

    const decoded = decodeProtectedHeader(body.signature);
    await assert.rejects(verifyWithJwks(t, `${b64({ ...decoded, typ: 'at+jwt' })}.${payload}.${sig}`, jwks), {
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
    await assert.rejects(
      verifyWithJwks(t, `${b64({ ...decoded, kid: 'someone-else' })}.${payload}.${sig}`, jwks),
      {
        code: 'ERR_JWKS_NO_MATCHING_KEY',
      },
    );
    await assert.rejects(verifyWithJwks(t, `${b64({ ...decoded, alg: 'none' })}.${payload}.`, jwks));
    // A truncated signature does not verify either.
    await assert.rejects(verifyWithJwks(t, `${header}.${payload}.${sig.slice(0, -4)}`, jwks));
  });

  it('survive a restart: the key is kept in the database and the old signature still verifies', async () => {
    const { t, hotel } = await startCheckinApp();
    let second: Runtime | null = null;
    try {
      const booked = await bookStay(t, hotel);
      const { id, body } = await openedSession(t, booked);
      const kid = decodeProtectedHeader(body.signature).kid;
      await t.runtime.close();

      second = await anotherProcess(t, hotel);
      const jwks = await jwksOf(second.app);
      assert.deepEqual(
        jwks.keys.map((k) => k.kid),
        [kid],
      );
      await verifyWithJwks(t, body.signature, jwks);
      const res = await second.app.inject({ method: 'GET', url: `/api/v1/checkin/sessions/${id}` });
      assert.equal(res.statusCode, 200);
      assert.equal(decodeProtectedHeader(res.json().signature).kid, kid);
      // The private key is stored encrypted, never as plain PKCS#8.
      const { rows } = await t.db.query<{ private_key: Uint8Array }>('SELECT private_key FROM signing_keys');
      for (const row of rows)
        assert.notEqual(Buffer.from(row.private_key).subarray(0, 2).toString('hex'), '302e');
    } finally {
      await second?.close();
      await t.db.close();
    }
  });

  it('survive a rotation: old keys stay published until their signatures expire', async () => {
    const { t, hotel } = await startCheckinApp();
    let second: Runtime | null = null;
    try {
      const booked = await bookStay(t, hotel, { fromToday: 3, nights: 2 });
      const { id, body } = await openedSession(t, booked);
      const oldKid = decodeProtectedHeader(body.signature).kid;

      // Rotate as the CLI does, from outside the running process.
      assert.ok(t.config.dataEncryptionKey);
      const keys = await SigningKeyStore.open({
        db: t.db,
        encryptor: createEncryptor(t.config.dataEncryptionKey),
        clock: t.clock,
        keyring: keyringOf(t.config.dataEncryptionKey),
      });
      assert.equal(keys.currentKeyId, oldKid);
      const { kid: newKid, retired } = await keys.rotate();
      assert.deepEqual(retired, [oldKid]);
      assert.notEqual(newKid, oldKid);

      // The running process publishes both at once; the old signature still verifies.
      const both = await fetchJwks(t);
      assert.deepEqual(
        both.keys.map((k) => k.kid),
        [newKid, oldKid],
      );
      await verifyWithJwks(t, body.signature, both);

      // Another process (or this one after its periodic refresh) signs with the new key.
      second = await anotherProcess(t, hotel);
      const res = await second.app.inject({ method: 'GET', url: `/api/v1/checkin/sessions/${id}` });
      assert.equal(res.statusCode, 200);
      const fresh = res.json().signature;
      assert.equal(decodeProtectedHeader(fresh).kid, newKid);
      const jwks = await jwksOf(second.app);
      await jwtVerify(fresh, createLocalJWKSet(jwks), { currentDate: t.clock.now() });
      await jwtVerify(body.signature, createLocalJWKSet(jwks), { currentDate: t.clock.now() });

      // Once every signature of the old key has expired, it leaves the set.
      moveClockTo(t, body.session.expiresAt, 1000);
      assert.deepEqual(
        (await jwksOf(second.app)).keys.map((k) => k.kid),
        [newKid],
      );
    } finally {
      await second?.close();
      await t.close();
    }
  });
});
