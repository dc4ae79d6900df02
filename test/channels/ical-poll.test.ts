/**
 * The iCal poller (docs/api.md §9.1) on the claim worker: an import is fetched again on its own,
 * every ICAL_POLL_SECONDS, with no sync asked for, and its holds follow the feed.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays, localToday, reloadHotel, roomsLeft } from '../booking/helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { FeedServer } from './feed-server.ts';

let app: OperatorApp;
let platform: FeedServer;
before(async () => {
  app = await startOperatorApp({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_WORKER: 'false',
    ICAL_POLL_SECONDS: '1',
  });
  platform = await FeedServer.start();
});
after(async () => {
  await platform.close();
  await app.t.close();
});

it('fetches an import again on its own every ICAL_POLL_SECONDS, and its holds follow the feed', async () => {
  const hotel = makeHotel();
  await reloadHotel(app.t, hotel);
  const night = (n: number) => addDays(localToday(app.t), n);
  platform.status = 200;
  platform.events([['ev-1@platform', night(20), night(23)]]);
  const created = await app.t.inject({
    method: 'POST',
    url: `${OPERATOR}/hotels/${hotel.id}/ical-imports`,
    headers: auth(app.root),
    payload: { roomTypeId: 'suite', url: platform.url, name: 'Platform' },
  });
  assert.equal(created.statusCode, 201, created.body);
  assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(20), night(23)), 1);

  // The feed changes; no sync is asked for: the poller's next fetch (about a second on) finds it.
  platform.events([]);
  while ((await roomsLeft(app.t, hotel.id, 'suite', night(20), night(23))) !== 2) await sleep(100);
  const listed = await app.t.inject({
    method: 'GET',
    url: `${OPERATOR}/hotels/${hotel.id}/ical-imports`,
    headers: auth(app.root),
  });
  assert.equal(listed.json().data[0].lastFetch.events, 0);
});
