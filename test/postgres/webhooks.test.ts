/**
 * Events and webhooks on a real PostgreSQL server: the feed never skips an event committed out of
 * order, two service processes make each attempt exactly once, and a process killed mid-delivery
 * leaves nothing undelivered once another one runs.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import { createEndpoint } from '../../src/events/commands/create-endpoint.ts';
import { deleteEndpoint } from '../../src/events/commands/delete-endpoint.ts';
import { recordEvent } from '../../src/events/record-event.ts';
import { createEncryptor } from '../../src/infra/crypto/encryption.ts';
import type { Database, Executor } from '../../src/infra/db/database.ts';
import { openPostgresDatabase } from '../../src/infra/db/postgres.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import { startReceiver, verifySignature } from '../events/receiver.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import {
  DATABASE_URL,
  eventually,
  needsPostgres,
  type ServiceProcess,
  sqlClient,
  startService,
  writeCatalog,
} from './support.ts';

const clientExecutor = (client: pg.Client): Executor => ({
  query: async (sql, params) => {
    const r = await client.query(sql, params as unknown[]);
    return { rows: r.rows, rowCount: r.rowCount ?? 0 };
  },
  script: async (sql) => {
    await client.query(sql);
  },
});

/** A page of the feed after `after`, read with the app's root key. */
async function feedPage(app: OperatorApp, after: string) {
  const response = await app.t.inject({
    method: 'GET',
    url: `${OPERATOR}/events?after=${after}`,
    headers: auth(app.root),
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as { data: Array<{ id: string }>; nextCursor: string };
}

describe('the event feed under out-of-order commits', { skip: needsPostgres }, () => {
  let app: OperatorApp;
  let a: pg.Client;
  let b: pg.Client;
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_WORKER: 'false' });
    [a, b] = await Promise.all([sqlClient(), sqlClient()]);
  });
  after(async () => {
    await Promise.all([a?.end(), b?.end()]);
    await app?.t.close();
  });

  const page = (after: string) => feedPage(app, after);

  it('shows an event whose transaction began first but committed last, after the reader passed a later one', async () => {
    const hotel = app.hotels[0].id;
    const start = await app.t.db.transaction((tx) =>
      recordEvent(tx, { type: 'calendar.updated', hotelId: hotel, data: {} }),
    );
    // A takes its place in the feed first, B second; B commits first.
    await a.query('BEGIN');
    const early = await recordEvent(clientExecutor(a), {
      type: 'reservation.created',
      hotelId: hotel,
      data: { tx: 'A' },
    });
    await b.query('BEGIN');
    const late = await recordEvent(clientExecutor(b), {
      type: 'reservation.created',
      hotelId: hotel,
      data: { tx: 'B' },
    });
    await b.query('COMMIT');

    // The reader polls while A is still open: B is committed, but published only after A ends.
    const first = await page(start);
    const seen = first.data.map((e) => e.id);
    assert.ok(!seen.includes(early), 'A is not committed yet');
    await a.query('COMMIT');

    const second = await page(first.nextCursor);
    const all = [...seen, ...second.data.map((e) => e.id)];
    assert.ok(all.includes(early), `A's event is not skipped (seen ${all})`);
    assert.ok(all.includes(late), "B's event is there too");
    assert.equal(new Set(all).size, all.length, 'no event twice');
  });

  it('holds events back while an older transaction is open, then publishes them in (xid, position) order', async () => {
    const hotel = app.hotels[1].id;
    const start = await app.t.db.transaction((tx) =>
      recordEvent(tx, { type: 'calendar.updated', hotelId: hotel, data: {} }),
    );
    await a.query('BEGIN');
    await a.query('SELECT pg_current_xact_id()'); // A holds the oldest transaction id
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        await app.t.db.transaction((tx) =>
          recordEvent(tx, { type: 'reservation.created', hotelId: hotel, data: { i } }),
        ),
      );
    assert.deepEqual((await page(start)).data, [], 'nothing published past an open older transaction');
    await a.query('ROLLBACK');
    assert.deepEqual(
      (await page(start)).data.map((e) => e.id),
      ids,
    );
  });

  it('is not held back by a transaction open in another database of the server', async () => {
    const hotel = app.hotels[1].id;
    const start = await app.t.db.transaction((tx) =>
      recordEvent(tx, { type: 'calendar.updated', hotelId: hotel, data: {} }),
    );
    const elsewhere = new URL(DATABASE_URL as string);
    elsewhere.pathname = '/postgres';
    const other = await sqlClient(elsewhere.toString());
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()');
      const id = await app.t.db.transaction((tx) =>
        recordEvent(tx, { type: 'reservation.created', hotelId: hotel, data: {} }),
      );
      assert.deepEqual(
        (await page(start)).data.map((e) => e.id),
        [id],
      );
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
  });
});

/*
 * Citus only (CITUS_URL): a transaction that wrote two nodes commits on the coordinator before its
 * prepared parts commit on the workers. The gap is made here by hand: an event below the horizon is
 * written on its worker in a prepared transaction, then a later event is committed normally. The
 * feed must wait for the prepared one rather than show the later event and pass it.
 */
describe('the event feed on Citus, between the two phases of a commit', { skip: needsPostgres }, () => {
  let app: OperatorApp;
  let coordinator: pg.Client;
  let worker: pg.Client | undefined;
  let shard = '';
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_WORKER: 'false' });
    coordinator = await sqlClient();
    const citus = await coordinator.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
    if (citus.rows.length === 0) return;
    const { rows } = await coordinator.query<{ shard_name: string; nodename: string; nodeport: number }>(
      `SELECT shard_name, nodename, nodeport FROM citus_shards
        WHERE table_name = 'events'::regclass
          AND shardid = get_shard_id_for_distribution_column('events', $1::text)`,
      [app.hotels[0].id],
    );
    const placement = rows[0];
    assert.ok(placement, 'the hotel has an events shard');
    shard = placement.shard_name;
    const url = new URL(DATABASE_URL as string);
    url.hostname = placement.nodename;
    url.port = String(placement.nodeport);
    worker = await sqlClient(url.toString());
  });
  after(async () => {
    await worker?.query(`ROLLBACK PREPARED 'innkeep_test_feed_stuck'`).catch(() => {});
    await Promise.all([worker?.end(), coordinator?.end()]);
    await app?.t.close();
  });

  const page = (after: string) => feedPage(app, after);
  /** An event on the hotel's worker, in a transaction prepared there and left open. */
  const prepareEvent = async (id: string, gid: string) => {
    const client = worker as pg.Client;
    // A transaction id the coordinator has given and ended: below the feed's horizon.
    const { rows } = await coordinator.query<{ xid: string }>(`SELECT pg_current_xact_id()::text AS xid`);
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO ${shard} (hotel_id, position, xid, public_id, type, data)
       VALUES ($1, 9000000000000 + $2::int, $3::text::xid8, $4, 'calendar.updated', '{}')`,
      [app.hotels[0].id, gid.length, rows[0]?.xid, id],
    );
    await client.query(`PREPARE TRANSACTION '${gid}'`);
  };

  it('waits for a prepared event below the horizon, then shows it before the later one', async (t) => {
    if (!worker) return t.skip('not a Citus cluster (CITUS_URL)');
    const hotel = app.hotels[0].id;
    const start = await app.t.db.transaction((tx) =>
      recordEvent(tx, { type: 'calendar.updated', hotelId: hotel, data: {} }),
    );
    await prepareEvent('evt_preparedgap', 'innkeep_test_feed_gap');
    const later = await app.t.db.transaction((tx) =>
      recordEvent(tx, { type: 'reservation.created', hotelId: hotel, data: {} }),
    );
    const reading = page(start);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await (worker as pg.Client).query(`COMMIT PREPARED 'innkeep_test_feed_gap'`);
    assert.deepEqual(
      (await reading).data.map((e) => e.id),
      ['evt_preparedgap', later],
    );
  });

  it('answers nothing new while a prepared transaction stays unresolved, and never skips it', async (t) => {
    if (!worker) return t.skip('not a Citus cluster (CITUS_URL)');
    const hotel = app.hotels[0].id;
    const start = await app.t.db.transaction((tx) =>
      recordEvent(tx, { type: 'calendar.updated', hotelId: hotel, data: {} }),
    );
    await prepareEvent('evt_preparedstuck', 'innkeep_test_feed_stuck');
    const later = await app.t.db.transaction((tx) =>
      recordEvent(tx, { type: 'reservation.created', hotelId: hotel, data: {} }),
    );
    const stuck = await page(start);
    assert.deepEqual(stuck, { data: [], nextCursor: start });
    await (worker as pg.Client).query(`COMMIT PREPARED 'innkeep_test_feed_stuck'`);
    assert.deepEqual(
      (await page(start)).data.map((e) => e.id),
      ['evt_preparedstuck', later],
    );
  });
});

describe('webhook delivery by several processes', { skip: needsPostgres }, () => {
  const key = randomBytes(32).toString('base64');
  const hotel = makeHotel();
  let db: Database;
  let sql: pg.Client;
  const services: ServiceProcess[] = [];
  let env: Record<string, string>;
  const deps = () => ({
    db,
    encryptor: createEncryptor(Buffer.from(key, 'base64')),
    allowPrivate: true,
    knownHotel: () => true,
    audit: SYSTEM_SCOPE,
  });
  const actor = { id: 'test', hotelIds: null };

  before(async () => {
    db = openPostgresDatabase({ url: DATABASE_URL as string, poolSize: 4 });
    sql = await sqlClient();
    env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: key,
      CATALOG_FILE: await writeCatalog([hotel]),
      DB_POOL_SIZE: '5',
      OPERATOR_BOOTSTRAP: 'false',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_SECONDS: '0.01',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '1000',
    };
  });
  after(async () => {
    for (const s of services)
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await sql?.end();
    await db?.close();
  });

  const raiseMany = async (n: number, label: string) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 50) {
      ids.push(
        ...(await db.transaction(async (tx) => {
          const batch: string[] = [];
          for (let j = i; j < Math.min(n, i + 50); j++)
            batch.push(
              await recordEvent(tx, { type: 'reservation.created', hotelId: hotel.id, data: { label, j } }),
            );
          return batch;
        })),
      );
    }
    return ids;
  };

  it('two processes make each attempt exactly once: 300 events, a third failing once first', async () => {
    const failedOnce = new Set<string>();
    const receiver = await startReceiver((_n, body) => {
      const { id, data } = JSON.parse(body);
      if (data.j % 3 === 0 && !failedOnce.has(id)) {
        failedOnce.add(id);
        return 500;
      }
      return 200;
    });
    const { endpoint, secret } = await createEndpoint(deps(), actor, {
      url: receiver.url,
      events: ['reservation.*'],
    });
    const pair = await Promise.all([startService(env), startService(env)]);
    services.push(...pair);
    try {
      const ids = await raiseMany(300, 'exactly-once');
      const expected = new Map(ids.map((id, j) => [id, j % 3 === 0 ? 2 : 1]));
      const total = [...expected.values()].reduce((x, y) => x + y, 0);
      await eventually(
        'every attempt',
        async () => (receiver.received.length >= total ? true : undefined),
        600,
      );
      await new Promise((resolve) => setTimeout(resolve, 500)); // room for a duplicate to show
      const counts = new Map<string, number>();
      for (const r of receiver.received) {
        const id = r.headers['innkeep-event-id'] as string;
        counts.set(id, (counts.get(id) ?? 0) + 1);
        assert.ok(verifySignature(secret, r.headers['innkeep-signature'] as string, r.body));
      }
      const wrong = [...expected].filter(([id, n]) => counts.get(id) !== n);
      assert.deepEqual(
        wrong.slice(0, 5).map(([id, n]) => `${id}: expected ${n}, got ${counts.get(id)}`),
        [],
      );
      const { rows } = await sql.query(
        `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = (SELECT id FROM webhook_endpoints WHERE public_id = $1) GROUP BY status`,
        [endpoint.id],
      );
      assert.deepEqual(rows, [{ status: 'delivered', n: 300 }]);
      // Both processes took part (each logs its own failed attempts).
      for (const s of pair)
        assert.ok(
          s.lines.some((l) => l.includes('webhook attempt failed')),
          'each process delivered',
        );
    } finally {
      await deleteEndpoint({ db, audit: SYSTEM_SCOPE }, actor, endpoint.id);
      for (const exit of await Promise.all(pair.map((s) => s.stop())))
        assert.deepEqual(exit, { code: 0, signal: null });
      await receiver.close();
    }
  });

  it('a process killed mid-delivery: a restarted one delivers every event at least once', async () => {
    let hanging = true;
    const receiver = await startReceiver(() => (hanging ? 'hang' : 200));
    const { endpoint } = await createEndpoint(deps(), actor, {
      url: receiver.url,
      events: ['reservation.created'],
    });
    const first = await startService({ ...env, WEBHOOK_TIMEOUT_MS: '5000' });
    services.push(first);
    try {
      const ids = await raiseMany(40, 'crash');
      // Ten attempts in flight (the worker's concurrency), none answered: kill it there.
      await eventually(
        'attempts in flight',
        async () => (receiver.received.length >= 10 ? true : undefined),
        400,
      );
      first.child.kill('SIGKILL');
      await first.exited;
      hanging = false;
      const second = await startService({ ...env, WEBHOOK_TIMEOUT_MS: '1000' });
      services.push(second);
      const delivered = async () => {
        const { rows } = await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
            WHERE w.public_id = $1 AND d.status = 'delivered'`,
          [endpoint.id],
        );
        return rows[0]?.n === ids.length ? true : undefined;
      };
      // The killed process's claims end with their lease (2 × 5 s + 5 s), then they are retried.
      await eventually('every delivery', delivered, 800);
      const got = new Set(receiver.received.map((r) => r.headers['innkeep-event-id']));
      assert.deepEqual(
        ids.filter((id) => !got.has(id)),
        [],
      );
      assert.deepEqual(await second.stop(), { code: 0, signal: null });
    } finally {
      await deleteEndpoint({ db, audit: SYSTEM_SCOPE }, actor, endpoint.id);
      await receiver.close();
    }
  });
});
