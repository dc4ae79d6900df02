import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { testFileDatabase } from '../../test/helpers/test-database.ts';
import type { Clock } from '../infra/clock.ts';
import { createEncryptor } from '../infra/crypto/encryption.ts';
import { keyringOf, SigningKeyStore } from './signing-key-store.ts';

const clock: Clock = { now: () => new Date() };
const KEYRING = 'test-keyring';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/**
 * The file's migrated database on the suite's engine (a pool on PostgreSQL, where the two opens of
 * the first test really race), with no signing key yet: each test starts as a first start.
 */
async function setup() {
  const db = await testFileDatabase();
  await db.query('DELETE FROM signing_keys');
  const encryptor = createEncryptor(randomBytes(32));
  return { db, encryptor };
}

describe('signing key store', () => {
  it('creates one key on first start and reuses it after', async () => {
    const { db, encryptor } = await setup();
    try {
      const [a, b] = await Promise.all([
        SigningKeyStore.open({ db, encryptor, clock, keyring: KEYRING }),
        SigningKeyStore.open({ db, encryptor, clock, keyring: KEYRING }),
      ]);
      assert.equal(a.currentKeyId, b.currentKeyId);
      const c = await SigningKeyStore.open({ db, encryptor, clock, keyring: KEYRING });
      assert.equal(c.currentKeyId, a.currentKeyId);
      assert.equal((await c.publishedKeys()).length, 1);
    } finally {
      await db.close();
    }
  });

  it('lets processes sharing a database verify each other, across a rotation', async () => {
    const { db, encryptor } = await setup();
    try {
      const a = await SigningKeyStore.open({ db, encryptor, clock, keyring: KEYRING });
      const b = await SigningKeyStore.open({ db, encryptor, clock, keyring: KEYRING });
      const before = await a.sign({ sub: 'x', exp: inAnHour() });
      await a.rotate();
      const after = await a.sign({ sub: 'y', exp: inAnHour() });
      assert.notEqual(decodeProtectedHeader(after).kid, decodeProtectedHeader(before).kid);
      // b has not seen the new key yet: an unknown kid makes it reload.
      assert.equal((await b.verify(after)).payload.sub, 'y');
      assert.equal((await b.verify(before)).payload.sub, 'x');
      const jwks = createLocalJWKSet({ keys: await b.publishedKeys() });
      await jwtVerify(before, jwks);
      await jwtVerify(after, jwks);
    } finally {
      await db.close();
    }
  });

  it('keeps a retired key published while a stale process still signs with it', async () => {
    const { db, encryptor } = await setup();
    try {
      const stale = await SigningKeyStore.open({ db, encryptor, clock, keyring: KEYRING });
      const oldKid = stale.currentKeyId;
      const rotator = await SigningKeyStore.open({ db, encryptor, clock, keyring: KEYRING });
      await rotator.rotate();
      // Before its periodic refresh, the stale process signs with the retired key...
      const late = await stale.sign({ sub: 'z', exp: inAnHour() + 7200 });
      assert.equal(decodeProtectedHeader(late).kid, oldKid);
      // ...which therefore stays in the JWKS until that signature expires.
      const published = (await rotator.publishedKeys()).map((k) => k.kid);
      assert.deepEqual(published, [rotator.currentKeyId, oldKid]);
      const later: Clock = { now: () => new Date((inAnHour() + 7201) * 1000) };
      const future = await SigningKeyStore.open({ db, encryptor, clock: later, keyring: KEYRING });
      assert.deepEqual(
        (await future.publishedKeys()).map((k) => k.kid),
        [rotator.currentKeyId],
      );
    } finally {
      await db.close();
    }
  });

  it('keeps the keys of another DATA_ENCRYPTION_KEY apart', async () => {
    const { db, encryptor } = await setup();
    try {
      const mine = await SigningKeyStore.open({ db, encryptor, clock, keyring: KEYRING });
      const otherKey = randomBytes(32);
      const other = await SigningKeyStore.open({
        db,
        encryptor: createEncryptor(otherKey),
        clock,
        keyring: keyringOf(otherKey),
      });
      assert.notEqual(other.currentKeyId, mine.currentKeyId);
      assert.equal(await mine.otherKeyrings(), 1);
      assert.deepEqual(
        (await mine.publishedKeys()).map((k) => k.kid),
        [mine.currentKeyId],
      );
      await other.sign({ sub: 'x', exp: inAnHour() });
      // A key row moved to another keyring cannot be unwrapped there: the AAD binds it.
      await db.query('DELETE FROM signing_keys WHERE kid = $1', [mine.currentKeyId]);
      await db.query('UPDATE signing_keys SET keyring = $1', [KEYRING]);
      const confused = await SigningKeyStore.open({ db, encryptor, clock, keyring: KEYRING });
      await assert.rejects(confused.sign({ sub: 'y', exp: inAnHour() }));
    } finally {
      await db.close();
    }
  });
});
