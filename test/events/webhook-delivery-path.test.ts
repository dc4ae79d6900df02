/**
 * The delivery worker's fast path (on whichever engine the suite runs): a booking's commit wakes
 * the worker at once (no waiting for the poll), the deliveries are made by the event's own
 * statement, and attempts to one endpoint reuse a kept-alive connection.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../../src/events/record-event.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { eventually } from '../postgres/support.ts';

describe('webhook delivery path', () => {
  let app: OperatorApp;
  let t: TestApp;
  let server: http.Server;
  let url: string;
  const arrivals: number[] = [];
  let connections = 0;

  before(async () => {
    // A poll far longer than the test: only a wake-up after commit can deliver in time.
    app = await startOperatorApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000' });
    t = app.t;
    server = http.createServer((request, response) => {
      request.resume().on('end', () => {
        arrivals.push(Date.now());
        response.writeHead(204).end();
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const created = await t.inject({
      method: 'POST',
      url: `${OPERATOR}/webhook-endpoints`,
      headers: auth(app.root),
      payload: { url, events: ['reservation.*'] },
    });
    assert.equal(created.statusCode, 201, created.body);
  });
  after(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const raise = () =>
    t.db.transaction((tx) =>
      recordEvent(tx, { type: 'reservation.created', hotelId: app.hotels[0].id, data: { n: 1 } }),
    );

  it('the event inserts its delivery in the same transaction; a rolled-back one leaves none', async () => {
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries');
    await assert.rejects(
      t.db.transaction(async (tx) => {
        await recordEvent(tx, { type: 'reservation.created', hotelId: app.hotels[0].id, data: {} });
        const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries');
        assert.equal(rows[0]?.n, (before.rows[0]?.n ?? 0) + 1, 'made by the event insert');
        throw new Error('roll back');
      }),
      /roll back/,
    );
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries');
    assert.equal(after.rows[0]?.n, before.rows[0]?.n);
  });

  it('delivers within a second of the commit without waiting for the poll', async () => {
    const seen = arrivals.length;
    const committed = Date.now();
    await raise();
    await eventually('the delivery', async () => (arrivals.length > seen ? true : undefined));
    assert.ok((arrivals[seen] as number) - committed < 1000, `${(arrivals[seen] as number) - committed} ms`);
  });

  it('attempts to one endpoint reuse a kept-alive connection', async () => {
    const seen = arrivals.length;
    const opened = connections;
    for (let i = 0; i < 5; i++) {
      await raise();
      const target = seen + i + 1;
      await eventually('the delivery', async () => (arrivals.length >= target ? true : undefined));
    }
    assert.ok(connections - opened <= 1, `${connections - opened} connections for 5 deliveries`);
  });
});
