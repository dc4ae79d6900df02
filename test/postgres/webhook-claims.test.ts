/**
 * The delivery worker's batches on a real PostgreSQL server: concurrent batch claims never hand
 * one attempt to two claimants, and another process's commit wakes a service's worker by
 * notification, without waiting for its poll.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createEndpoint } from '../../src/events/commands/create-endpoint.ts';
import { deleteEndpoint } from '../../src/events/commands/delete-endpoint.ts';
import { deliveryRepository } from '../../src/events/delivery.repository.ts';
import { recordEvent } from '../../src/events/record-event.ts';
import { createEncryptor } from '../../src/infra/crypto/encryption.ts';
import type { Database } from '../../src/infra/db/database.ts';
import { openPostgresDatabase } from '../../src/infra/db/postgres.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import { startReceiver } from '../events/receiver.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { DATABASE_URL, eventually, needsPostgres, startService, writeCatalog } from './support.ts';

describe('webhook delivery batches', { skip: needsPostgres }, () => {
  const key = randomBytes(32).toString('base64');
  const hotel = makeHotel();
  const actor = { id: 'test', hotelIds: null };
  let db: Database;
  const deps = () => ({
    db,
    encryptor: createEncryptor(Buffer.from(key, 'base64')),
    allowPrivate: true,
    knownHotel: () => true,
    audit: SYSTEM_SCOPE,
  });

  before(() => {
    db = openPostgresDatabase({ url: DATABASE_URL as string, poolSize: 8 });
  });
  after(async () => {
    await db?.close();
  });

  const raise = (n: number) =>
    db.transaction(async (tx) => {
      for (let j = 0; j < n; j++)
        await recordEvent(tx, { type: 'reservation.created', hotelId: hotel.id, data: { j } });
    });

  it('six claimants taking batches of 25 at once share 300 deliveries without overlap', async () => {
    // No worker runs in this process: the deliveries wait for the claims below.
    const { endpoint } = await createEndpoint(deps(), actor, {
      url: 'http://127.0.0.1:9/unused',
      events: ['reservation.created'],
    });
    try {
      await raise(300);
      const claimant = async (n: number) => {
        const ids: number[] = [];
        for (;;) {
          const batch = await deliveryRepository.claim(db, 25, `clm_test${n}`, 60);
          if (batch.length === 0) return ids;
          ids.push(...batch.map((d) => d.id));
        }
      };
      const claimed = (await Promise.all([0, 1, 2, 3, 4, 5].map(claimant))).flat();
      assert.equal(claimed.length, 300);
      assert.equal(new Set(claimed).size, 300, 'no delivery claimed twice');
      assert.ok((await claimant(6)).length === 0, 'a claimed delivery is not due again within its lease');
    } finally {
      await deleteEndpoint({ db, audit: SYSTEM_SCOPE }, actor, endpoint.id);
    }
  });

  it("another process's commit wakes a service's worker by notification, not its poll", async () => {
    const receiver = await startReceiver(() => 204);
    const { endpoint } = await createEndpoint(deps(), actor, {
      url: receiver.url,
      events: ['reservation.created'],
    });
    const service = await startService({
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: key,
      CATALOG_FILE: await writeCatalog([hotel]),
      DB_POOL_SIZE: '3',
      OPERATOR_BOOTSTRAP: 'false',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '60000',
    });
    try {
      // Its start-up claim has run and its listener is up (a heartbeat is 250 ms).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (let round = 0; round < 3; round++) {
        const committed = Date.now();
        await raise(1);
        await eventually('the delivery', async () => (receiver.received.length > round ? true : undefined));
        const took = (receiver.received[round]?.at as number) - committed;
        assert.ok(took < 1000, `delivered ${took} ms after the commit`);
      }
      assert.deepEqual(await service.stop(), { code: 0, signal: null });
    } finally {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
      await deleteEndpoint({ db, audit: SYSTEM_SCOPE }, actor, endpoint.id);
      await receiver.close();
    }
  });
});
