/** The event feed (API.md 8.1): filters, hotels of the key, cursors, validation, retention. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EventType } from '../../src/events/event-types.ts';
import { feedRepository } from '../../src/events/feed.repository.ts';
import { recordEvent } from '../../src/events/record-event.ts';
import type { Database } from '../../src/infra/db/database.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

describe('event feed', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_WORKER: 'false' });
  });
  after(() => app.t.close());

  const raise = (hotelId: string, type: EventType, n: number) =>
    app.t.db.transaction((tx) => recordEvent(tx, { type, hotelId, data: { n } }));

  async function feed(query: string, key = app.root) {
    return app.t.inject({ method: 'GET', url: `${OPERATOR}/events${query}`, headers: auth(key) });
  }

  /** Every event after `after` through `nextCursor`, in pages of `limit`. */
  async function readAll(key: string, query: string, limit: number, after?: string) {
    const seen: Array<{ id: string; type: string; hotelId: string; data: { n: number } }> = [];
    let cursor = after;
    for (;;) {
      const response = await feed(`?limit=${limit}${query}${cursor ? `&after=${cursor}` : ''}`, key);
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json();
      seen.push(...page.data);
      if (page.data.length === 0) {
        assert.equal(page.nextCursor, cursor ?? null);
        return seen;
      }
      assert.equal(page.nextCursor, page.data.at(-1).id);
      cursor = page.nextCursor;
    }
  }

  it('pages through the key’s hotels in commit order, filtered by types', async () => {
    const [a, b] = [app.hotels[0].id, app.hotels[1].id];
    const first = await raise(a, 'calendar.updated', 0);
    for (let n = 1; n <= 12; n++) {
      await raise(n % 2 ? a : b, n % 3 ? 'reservation.created' : 'checkin.completed', n);
    }
    const { key } = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [a] });

    const mine = await readAll(key, '', 5, first);
    assert.deepEqual(
      mine.map((e) => e.data.n),
      [1, 3, 5, 7, 9, 11],
    );
    assert.ok(mine.every((e) => e.hotelId === a));
    const event = mine[0];
    assert.ok(event);
    assert.deepEqual(Object.keys(event).sort(), ['createdAt', 'data', 'hotelId', 'id', 'type']);

    const completed = await readAll(key, '&types=checkin.completed', 2, first);
    assert.deepEqual(
      completed.map((e) => e.data.n),
      [3, 9],
    );
    const wildcard = await readAll(app.root, '&types=checkin.*,calendar.updated', 100, first);
    assert.deepEqual(
      wildcard.map((e) => e.data.n),
      [3, 6, 9, 12],
    );

    // From the start: the first event is there too.
    const fromStart = await readAll(key, '&types=calendar.updated', 500);
    assert.ok(fromStart.some((e) => e.id === first));
  });

  it('answers 400 to unknown types, unknown or foreign cursors and limits out of range', async () => {
    const [a, b] = [app.hotels[0].id, app.hotels[1].id];
    const foreign = await raise(b, 'reservation.created', 1);
    const { key } = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [a] });
    for (const [query, path] of [
      ['?types=reservation.made', '/query/types'],
      ['?types=', '/query/types'],
      ['?types=*', '/query/types'],
      ['?after=evt_doesnotexist', '/query/after'],
      ['?after=nonsense', '/query/after'],
      [`?after=${foreign}`, '/query/after'],
      ['?limit=0', '/query/limit'],
      ['?limit=501', '/query/limit'],
      ['?limit=ten', '/query/limit'],
      ['?unknown=1', '/query/unknown'],
    ]) {
      const response = await feed(query as string, key);
      assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
      assert.equal(response.json().code, 'validation_error');
      assert.ok(
        response.json().errors.some((e: { path: string }) => e.path === path),
        `${query}: ${response.body}`,
      );
    }
  });

  it('purges events older than the retention and their cursor becomes unknown', async () => {
    const old = await raise(app.hotels[0].id, 'reservation.created', 1);
    await app.t.db.query("UPDATE events SET created_at = now() - interval '31 days' WHERE public_id = $1", [
      old,
    ]);
    assert.ok((await feedRepository.deleteOlderThan(app.t.db, new Date(Date.now() - 30 * 864e5))) >= 1);
    const response = await feed(`?after=${old}`);
    assert.equal(response.statusCode, 400);
  });

  it('asks for two-phase commits to wait for on every page with Citus, and no more without', async () => {
    const sent: string[] = [];
    const db: Database = {
      ...app.t.db,
      query: (sql, params) => {
        sent.push(sql);
        return app.t.db.query(sql, params);
      },
    };
    const page = { after: null, hotelIds: [app.hotels[0].id], types: null, limit: 1 };
    await feedRepository.page(db, page);
    sent.length = 0;
    await feedRepository.page(db, page);
    const { rows } = await app.t.db.query<{ citus: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`,
    );
    const asked = sent.filter((sql) => sql.includes('events_feed_pending_commits')).length;
    // Remembered per database (src/events/feed.repository.ts): a server without Citus is asked once,
    // and a page is then two statements, the horizon and the events.
    if (rows[0]?.citus) assert.ok(asked >= 1, sent.join('\n'));
    else assert.deepEqual([asked, sent.length], [0, 2], sent.join('\n'));
  });
});
