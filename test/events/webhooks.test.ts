/**
 * Webhook endpoints and delivery over real HTTP (API.md 8.2): receivers on 127.0.0.1 started here,
 * so the app runs with WEBHOOK_ALLOW_PRIVATE=true; a second app without it checks the SSRF refusals.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { EventType } from '../../src/events/event-types.ts';
import { recordEvent } from '../../src/events/record-event.ts';
import { VERIFY_SNIPPET } from '../../src/events/webhooks.docs.ts';
import { bookStay, completeCheckin, openedSession } from '../checkin/helpers.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { eventually } from '../postgres/support.ts';
import { type Receiver, startReceiver, verifySignature } from './receiver.ts';

const TIMEOUT_MS = 400;

describe('webhooks', () => {
  let app: OperatorApp;
  let t: TestApp;
  const receivers: Receiver[] = [];
  before(async () => {
    app = await startOperatorApp({
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_SECONDS: '0.01',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
    t = app.t;
  });
  after(async () => {
    await t.close();
    for (const r of receivers) await r.close();
  });

  async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const r = await startReceiver(answer);
    receivers.push(r);
    return r;
  }

  async function createEndpoint(body: object, key = app.root) {
    return t.inject({
      method: 'POST',
      url: `${OPERATOR}/webhook-endpoints`,
      headers: auth(key),
      payload: body,
    });
  }

  async function endpointFor(url: string, hotelIds: string[], events = ['reservation.*', 'checkin.*']) {
    const response = await createEndpoint({ url, events, hotelIds });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: string; secret: string };
  }

  const raise = (hotelId: string, type: EventType = 'reservation.created', data: object = { n: 1 }) =>
    t.db.transaction((tx) => recordEvent(tx, { type, hotelId, data: { ...data } }));

  async function attempts(endpointId: string) {
    const response = await t.inject({
      method: 'GET',
      url: `${OPERATOR}/webhook-endpoints/${endpointId}/deliveries`,
      headers: auth(app.root),
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as Array<{
      eventId: string;
      attempt: number;
      status: number | null;
      error: string | null;
      durationMs: number;
    }>;
  }

  it('creates, lists and deletes endpoints; the secret is shown once and stored encrypted', async () => {
    const hotel = app.hotels[0].id;
    const created = await createEndpoint({
      url: 'http://127.0.0.1:9/hook',
      events: ['reservation.*', 'checkin.completed'],
      description: 'PMS',
    });
    assert.equal(created.statusCode, 201, created.body);
    const body = created.json();
    assert.match(body.id, /^we_[0-9a-z]+$/);
    assert.match(body.secret, /^whsec_[0-9a-z]+$/);
    assert.deepEqual(body.events, ['reservation.*', 'checkin.completed']);
    assert.equal(body.hotelIds, null, 'a key for every hotel, no hotelIds: every hotel');
    const stored = await t.db.query<{ secret_encrypted: Uint8Array }>(
      'SELECT secret_encrypted FROM webhook_endpoints WHERE public_id = $1',
      [body.id],
    );
    assert.ok(
      !Buffer.from(stored.rows[0]?.secret_encrypted ?? [])
        .toString('latin1')
        .includes(body.secret),
    );

    const list = await t.inject({
      method: 'GET',
      url: `${OPERATOR}/webhook-endpoints`,
      headers: auth(app.root),
    });
    const listed = list.json().data.find((e: { id: string }) => e.id === body.id);
    assert.equal(listed.description, 'PMS');
    assert.equal(listed.secret, undefined);

    // A hotel-limited key: absent hotelIds = its hotels; another hotel is 403; it cannot see the
    // endpoint for every hotel.
    const { key } = await makeKey(app, { scopes: ['webhooks:write'], hotelIds: [hotel] });
    const own = await createEndpoint({ url: 'http://127.0.0.1:9/a', events: ['checkin.*'] }, key);
    assert.equal(own.statusCode, 201, own.body);
    assert.deepEqual(own.json().hotelIds, [hotel]);
    const foreign = await createEndpoint(
      { url: 'http://127.0.0.1:9/a', events: ['checkin.*'], hotelIds: [app.hotels[1].id] },
      key,
    );
    assert.equal(foreign.statusCode, 403, foreign.body);
    const hidden = await t.inject({
      method: 'DELETE',
      url: `${OPERATOR}/webhook-endpoints/${body.id}`,
      headers: auth(key),
    });
    assert.equal(hidden.statusCode, 404);
    const limitedList = await t.inject({
      method: 'GET',
      url: `${OPERATOR}/webhook-endpoints`,
      headers: auth(key),
    });
    assert.deepEqual(
      limitedList.json().data.map((e: { id: string }) => e.id),
      [own.json().id],
    );

    const deleted = await t.inject({
      method: 'DELETE',
      url: `${OPERATOR}/webhook-endpoints/${body.id}`,
      headers: auth(app.root),
    });
    assert.equal(deleted.statusCode, 204);
    const again = await t.inject({
      method: 'DELETE',
      url: `${OPERATOR}/webhook-endpoints/${body.id}`,
      headers: auth(app.root),
    });
    assert.equal(again.statusCode, 404);
  });

  it('refuses unknown event patterns and hotels with 400', async () => {
    for (const events of [['reservation.made'], ['*'], ['nothing.*'], []]) {
      const response = await createEndpoint({ url: 'http://127.0.0.1:9/x', events });
      assert.equal(response.statusCode, 400, `${JSON.stringify(events)}: ${response.body}`);
      assert.equal(response.json().code, 'validation_error');
    }
    const unknownHotel = await createEndpoint({
      url: 'http://127.0.0.1:9/x',
      events: ['checkin.*'],
      hotelIds: ['nope'],
    });
    assert.equal(unknownHotel.statusCode, 400, unknownHotel.body);
  });

  it('POSTs matching events signed with the secret; an independent check verifies the signature', async () => {
    const r = await receiver();
    const { id, secret } = await endpointFor(r.url, [app.hotels[0].id], ['reservation.created']);
    const eventId = await raise(app.hotels[0].id, 'reservation.created', { reservation: { id: 'ABC' } });
    await raise(app.hotels[0].id, 'reservation.cancelled'); // not subscribed
    await raise(app.hotels[1].id, 'reservation.created'); // another hotel
    await eventually('the delivery', async () => (r.received.length > 0 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(r.received.length, 1, 'only the matching event');
    const [got] = r.received;
    assert.ok(got);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['innkeep-event-id'], eventId);
    assert.ok(
      verifySignature(secret, got.headers['innkeep-signature'] as string, got.body),
      'signature verifies',
    );
    assert.ok(!verifySignature('whsec_other', got.headers['innkeep-signature'] as string, got.body));
    assert.ok(!verifySignature(secret, got.headers['innkeep-signature'] as string, `${got.body} `));
    const payload = JSON.parse(got.body);
    assert.deepEqual(Object.keys(payload).sort(), ['createdAt', 'data', 'hotelId', 'id', 'type']);
    assert.equal(payload.id, eventId);
    assert.deepEqual(payload.data, { reservation: { id: 'ABC' } });
    const [attempt] = await eventually('the attempt log', async () => {
      const a = await attempts(id);
      return a.length > 0 ? a : undefined;
    });
    assert.equal(attempt?.status, 200);
    assert.equal(attempt?.eventId, eventId);
  });

  it('retries after 5xx, a timeout and a refused connection, with backoff, until delivered', async () => {
    const hotel = app.hotels[1].id;
    const answers: Array<number | 'hang'> = [500, 'hang', 503];
    const r = await receiver((n) => answers[n] ?? 200);
    const { id } = await endpointFor(r.url, [hotel], ['calendar.updated']);
    const eventId = await raise(hotel, 'calendar.updated');
    await eventually('four attempts', async () => (r.received.length >= 4 ? true : undefined), 400);
    assert.ok(r.received.every((x) => x.headers['innkeep-event-id'] === eventId));
    const log = await eventually('the fourth attempt recorded', async () => {
      const a = await attempts(id);
      return a.length >= 4 ? a : undefined;
    });
    assert.deepEqual(
      log.map((a) => [a.attempt, a.status]),
      [
        [4, 200],
        [3, 503],
        [2, null],
        [1, 500],
      ],
    );
    assert.match(log[2]?.error ?? '', /timeout/);
    assert.ok((log[2]?.durationMs ?? 0) >= TIMEOUT_MS - 50);
    // Backoff: the second attempt came no sooner than 1 unit (0.01 s) after the first, the
    // fourth at least 30 units after the third.
    const gaps = r.received.slice(1).map((x, i) => x.at - (r.received[i]?.at ?? 0));
    assert.ok((gaps[2] ?? 0) >= 250, `gaps ${gaps}`);
    assert.ok(t.logs.some((l) => l.includes('webhook attempt failed') && l.includes(eventId)));
    assert.ok(!t.logs.some((l) => l.includes('webhook attempt failed') && l.includes('"data"')));

    // A refused connection is an attempt too, retried.
    const closed = await receiver();
    await closed.close();
    const refused = await endpointFor(closed.url, [hotel], ['calendar.updated']);
    await raise(hotel, 'calendar.updated');
    const refusedLog = await eventually('two refused attempts', async () => {
      const a = await attempts(refused.id);
      return a.length >= 2 ? a : undefined;
    });
    assert.ok(
      refusedLog.every((a) => a.status === null && /ECONNREFUSED/.test(a.error ?? '')),
      JSON.stringify(refusedLog),
    );
    await t.inject({
      method: 'DELETE',
      url: `${OPERATOR}/webhook-endpoints/${refused.id}`,
      headers: auth(app.root),
    });

    const metrics = await t.inject({ method: 'GET', url: '/metrics' });
    assert.match(metrics.body, /innkeep_webhook_attempts_total\{outcome="delivered"\} [1-9]/);
    assert.match(metrics.body, /innkeep_webhook_attempts_total\{outcome="retry"\} [1-9]/);
    assert.match(metrics.body, /innkeep_webhook_queue_depth \d+/);
    assert.match(metrics.body, /innkeep_webhook_oldest_pending_seconds [\d.]+/);
  });

  it('raises checkin.started and checkin.completed without the session id', async () => {
    const hotelDef = app.hotels[0];
    const r = await receiver();
    await endpointFor(r.url, [hotelDef.id], ['checkin.*']);
    const booked = await bookStay(t, hotelDef);
    const session = await openedSession(t, booked);
    const started = await eventually('checkin.started', async () =>
      r.received
        .map((x) => JSON.parse(x.body))
        .find((e) => e.type === 'checkin.started' && e.data.reservation.id === booked.code),
    );
    // The reservation as the hotel sees it (API.md 7.2), with the check-in status the event brings.
    const { reservation } = started.data;
    assert.equal(reservation.id, booked.code);
    assert.equal(reservation.hotelId, hotelDef.id);
    assert.equal(reservation.checkIn, booked.checkIn);
    assert.equal(reservation.checkOut, booked.checkOut);
    assert.equal(reservation.status, 'confirmed');
    assert.equal(reservation.source, 'api');
    assert.deepEqual(reservation.checkin, { status: 'in_progress' });
    assert.deepEqual(started.data.checkin, { status: 'in_progress' });
    await completeCheckin(t, session.id, booked);
    const completed = await eventually('checkin.completed', async () =>
      r.received
        .map((x) => JSON.parse(x.body))
        .find((e) => e.type === 'checkin.completed' && e.data.reservation.id === booked.code),
    );
    assert.deepEqual(completed.data.checkin, { status: 'completed' });
    // The payment step, the last one, charged the balance in the same transaction: the event
    // shows the reservation after it, paid, as the operator API would show it then.
    assert.equal(booked.reservation.payment.due.amount > 0, true, 'a balance was due before check-in');
    assert.deepEqual(completed.data.reservation.payment, {
      status: 'paid',
      paid: booked.reservation.total,
      due: { amount: 0, currency: booked.reservation.total.currency },
    });
    assert.equal(
      r.received.filter((x) => JSON.parse(x.body).data.reservation.id === booked.code).length,
      2,
      'one event each',
    );
    assert.ok(!r.received.some((x) => x.body.includes(session.id)), 'never the session id');
    assert.ok(!r.received.some((x) => x.body.includes(booked.token)), 'never the access token');
  });

  it('the README’s verification snippet (the one in the OpenAPI document) verifies a real delivery', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    assert.ok(readme.includes(VERIFY_SNIPPET), 'README shows the same snippet as the OpenAPI document');
    const dir = await mkdtemp(path.join(tmpdir(), 'innkeep-verify-'));
    const file = path.join(dir, 'verify.mjs');
    await writeFile(file, `${VERIFY_SNIPPET}\nexport { verify };\n`);
    const { verify } = (await import(pathToFileURL(file).href)) as {
      verify: (secret: string, header: string, body: string) => boolean;
    };
    const r = await receiver();
    const { secret } = await endpointFor(r.url, [app.hotels[1].id], ['payment.*']);
    await raise(app.hotels[1].id, 'payment.succeeded');
    const got = await eventually('the delivery', async () => r.received[0]);
    const header = got.headers['innkeep-signature'] as string;
    assert.ok(verify(secret, header, got.body));
    assert.ok(!verify(secret, header, got.body.replace('payment', 'pAyment')));
    assert.ok(!verify(secret, header.replace(/t=\d+/, 't=1'), got.body), 'an old t is refused');
  });

  it('documents the payload under OpenAPI 3.1 `webhooks`, with the verification snippet', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const post = doc.webhooks.event.post;
    assert.match(post.description, /timingSafeEqual/);
    assert.deepEqual(
      post.parameters.map((p: { name: string }) => p.name),
      ['Innkeep-Event-Id', 'Innkeep-Signature'],
    );
    assert.deepEqual(Object.keys(post.requestBody.content['application/json'].schema.properties).sort(), [
      'createdAt',
      'data',
      'hotelId',
      'id',
      'type',
    ]);
    assert.ok(doc.paths['/api/v1/operator/webhook-endpoints'].post.requestBody);
  });
});

describe('webhook URL checks (SSRF)', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_WORKER: 'false' });
  });
  after(() => app.t.close());

  for (const url of [
    'http://example.com/hook', // http without WEBHOOK_ALLOW_PRIVATE
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://[::1]/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://localhost/hook', // a name resolving to loopback
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::127.0.0.1]/hook', // IPv4-compatible
    'https://[::ffff:0:127.0.0.1]/hook', // SIIT
    'https://[64:ff9b:1::7f00:1]/hook', // local-use NAT64
    'https://[64:ff9b::a9fe:a9fe]/hook', // NAT64 of the metadata service
    'https://[2002:a00:1::1]/hook', // 6to4 of 10.0.0.1
    'https://100.100.100.200/hook',
    'https://[fd00:ec2::254]/hook',
    'https://0.0.0.0/hook',
    'https://user:pass@example.com/hook',
    'not a url',
  ]) {
    it(`refuses ${url}`, async () => {
      const response = await app.t.inject({
        method: 'POST',
        url: `${OPERATOR}/webhook-endpoints`,
        headers: auth(app.root),
        payload: { url, events: ['reservation.*'] },
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'validation_error');
      assert.equal(response.json().errors[0].path, '/body/url');
    });
  }
});
