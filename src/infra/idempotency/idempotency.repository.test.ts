import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { testFileDatabase } from '../../../test/helpers/test-database.ts';
import type { Database } from '../db/database.ts';
import { type KeyScope, idempotencyRepository as keys } from './idempotency.repository.ts';

/** Runs on the suite's engine (a migrated database of this file's own): PostgreSQL when DATABASE_URL is set, else PGlite. */
// A key kept apart from every hotel (`idempotency_keys`) and a hotel's (`hotel_idempotency_keys`).
for (const hotelId of [null, 'harbour-view'])
  describe(`idempotency keys${hotelId ? ' of a hotel' : ''}: claim, takeover and fencing`, () => {
    let db: Database;
    before(async () => {
      db = await testFileDatabase();
    });
    after(() => db.close());

    const newKey = () => ({ scope: { hash: randomBytes(32), hotelId } as KeyScope, hash: randomBytes(32) });
    const lapse = (scope: KeyScope) =>
      db.query(
        `UPDATE ${hotelId ? 'hotel_idempotency_keys' : 'idempotency_keys'}
          SET locked_until = now() - interval '1 second' WHERE scope_hash = $1`,
        [scope.hash],
      );
    const stateOf = async (scope: KeyScope) => (await keys.find(db, scope))?.state ?? null;

    test('only one of several concurrent claims wins', async () => {
      const { scope, hash } = newKey();
      const claims = await Promise.all(
        Array.from({ length: 5 }, () => keys.claim(db, scope, hash, 60, 3600)),
      );
      assert.equal(claims.filter(Boolean).length, 1);
    });

    test('a lapsed claim is taken over by exactly one contender', async () => {
      const { scope, hash } = newKey();
      assert.ok(await keys.claim(db, scope, hash, 60, 3600));
      assert.equal(await keys.takeOver(db, scope, 60), null, 'a live claim cannot be taken over');
      await lapse(scope);
      const takeovers = await Promise.all(Array.from({ length: 5 }, () => keys.takeOver(db, scope, 60)));
      assert.equal(takeovers.filter(Boolean).length, 1);
    });

    test('a request that outlived its claim can neither store its response nor free the new holder', async () => {
      const { scope, hash } = newKey();
      const first = await keys.claim(db, scope, hash, 60, 3600);
      assert.ok(first);
      await lapse(scope);
      const second = await keys.takeOver(db, scope, 60);
      assert.ok(second);
      assert.notEqual(second, first);

      await keys.release(db, scope, first);
      assert.equal(await stateOf(scope), 'in_progress', 'the stale holder freed the key');
      assert.equal(await keys.complete(db, scope, first, Buffer.from('stale')), false);
      assert.equal(await stateOf(scope), 'in_progress', 'the stale holder stored its response');

      assert.equal(await keys.complete(db, scope, second, Buffer.from('fresh')), true);
      const stored = await keys.find(db, scope);
      assert.equal(stored?.state, 'done');
      assert.equal(stored?.response?.toString(), 'fresh');
    });

    test('the holder can release its claim so a retry starts afresh', async () => {
      const { scope, hash } = newKey();
      const token = await keys.claim(db, scope, hash, 60, 3600);
      assert.ok(token);
      await keys.release(db, scope, token);
      assert.equal(await stateOf(scope), null);
      assert.ok(await keys.claim(db, scope, hash, 60, 3600));
    });
  });
