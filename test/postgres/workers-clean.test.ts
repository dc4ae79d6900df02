/**
 * Every background worker, on two service processes sharing one database, with work to do and
 * nothing going wrong around it: webhook deliveries to a receiver that answers 200, guest messages
 * to an SMTP server that takes them, an iCal import fetched every second, refund retries, balance
 * charges and the identity-data purge polled several times a second. Neither process may log a
 * warning or an error (a worker's failed claim or pass is logged as a warning, and retried). On a Citus cluster (CITUS_URL, issue 37) this is how "the background workers run without
 * errors" is shown: their claims lock rows one hotel at a time, which a cross-shard lock would
 * refuse on every cycle.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { Executor } from '../../src/infra/db/database.ts';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { FeedServer } from '../channels/feed-server.ts';
import { type Receiver, startReceiver } from '../events/receiver.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { bookOverHttp, http } from '../helpers/service-process.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../messages/smtp-receiver.ts';
import {
  DATABASE_URL,
  needsPostgres,
  newEncryptionKey,
  type ServiceProcess,
  sqlClient,
  startService,
  writeCatalog,
} from './support.ts';

const OPERATOR = '/api/v1/operator';
const BOOKINGS = 12;

describe('the background workers of two processes, with work to do', { skip: needsPostgres }, () => {
  const hotel = makeHotel();
  const services: ServiceProcess[] = [];
  let sql: pg.Client;
  let smtp: SmtpReceiver;
  let hooks: Receiver;
  let platform: FeedServer;
  let key: string;

  before(async () => {
    [smtp, hooks, platform] = await Promise.all([startSmtpReceiver(), startReceiver(), FeedServer.start()]);
    const encryptionKey = newEncryptionKey();
    const env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: encryptionKey,
      CATALOG_FILE: await writeCatalog([hotel]),
      OPERATOR_BOOTSTRAP: 'false',
      DB_POOL_SIZE: '4',
      SMTP_URL: smtp.url,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      BALANCE_POLL_INTERVAL_MS: '100',
      PAYMENT_WORKER_INTERVAL_MS: '100',
      ICAL_POLL_SECONDS: '1',
      PURGE_INTERVAL_SECONDS: '1',
    };
    services.push(...(await Promise.all([startService(env), startService(env)])));
    sql = await sqlClient();
    ({ secret: key } = await insertCliKey(
      sql as unknown as Executor,
      operatorKeyHasher(Buffer.from(encryptionKey, 'base64')),
      {
        name: 'workers',
        scopes: ['webhooks:write', 'inventory:read', 'inventory:write', 'reservations:read'],
        hotelIds: null,
      },
    ));
  });
  after(async () => {
    for (const s of services)
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all([sql?.end(), smtp?.close(), hooks?.close(), platform?.close()]);
  });

  const operator = (service: ServiceProcess, method: string, url: string, body?: unknown) =>
    http(service.baseUrl, method, OPERATOR + url, body, { authorization: `Bearer ${key}` });

  it('deliver, send, fetch and poll without one warning or error logged', async () => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    const endpoint = await operator(a, 'POST', '/webhook-endpoints', {
      url: hooks.url,
      events: ['reservation.*'],
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    platform.status = 200;
    platform.events([['busy@platform', day(200), day(203)]]);
    const imported = await operator(b, 'POST', `/hotels/${hotel.id}/ical-imports`, {
      roomTypeId: 'double',
      url: platform.url,
      name: 'Platform',
    });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));

    const booked = [];
    for (let i = 0; i < BOOKINGS; i++) {
      booked.push(
        await bookOverHttp(i % 2 ? b : a, {
          hotelId: hotel.id,
          email: `guest${i}@example.com`,
          fromToday: 20 + 3 * i,
          nights: 2,
        }),
      );
    }
    // The feed changes: the poller's next fetches (every second, either process) follow it.
    platform.events([['busy@platform', day(210), day(212)]]);

    const deadline = Date.now() + 60_000;
    const created = () =>
      hooks.received.filter((r) => JSON.parse(r.body).type === 'reservation.created').length;
    while ((created() < BOOKINGS || smtp.mails.length < BOOKINGS) && Date.now() < deadline) await sleep(100);
    assert.equal(created(), BOOKINGS, 'every booking delivered to the webhook once');
    assert.ok(smtp.mails.length >= BOOKINGS, `${smtp.mails.length} of ${BOOKINGS} confirmations sent`);
    // A few more seconds of every worker polling, the iCal import fetched again and again.
    await sleep(3000);
    const listed = await operator(a, 'GET', `/hotels/${hotel.id}/ical-imports`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.data[0]?.lastFetch?.status, 'ok', JSON.stringify(listed.body));

    const exits = await Promise.all(services.map((s) => s.stop()));
    for (const exit of exits) assert.deepEqual(exit, { code: 0, signal: null });
    // A statement the client gave up waiting for (pg's query_timeout) is the machine's load, not a
    // worker's defect: a test process starved of CPU sees it on any query. Everything else counts.
    const starved = (entry: { err?: { message?: string } }) => entry.err?.message === 'Query read timeout';
    const errors = services.flatMap((s, i) =>
      s.lines
        .filter((line) => line.startsWith('{'))
        .map((line) => ({ line, entry: JSON.parse(line) as { level?: number; err?: { message?: string } } }))
        .filter(({ entry }) => (entry.level ?? 0) >= 40 && !starved(entry))
        .map(({ line }) => `process ${i}: ${line}`),
    );
    assert.deepEqual(errors, [], 'warnings and errors logged');
  });
});
