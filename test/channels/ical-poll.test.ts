/**
 * The iCal poller (docs/api.md §9.1) on the claim worker: an import is fetched again on its own,
 * every ICAL_POLL_SECONDS, with no sync asked for, and its holds follow the feed.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays, localToday, roomsLeft } from '../booking/helpers.ts';
import type { OperatorApp } from '../operator-access/helpers.ts';
import type { FeedServer } from './feed-server.ts';
import { freshHotel, type IcalBench, operatorCalls, startIcalBench } from './ical-bench.ts';

let app: OperatorApp;
let platform: FeedServer;
let bench: IcalBench;
before(async () => {
  bench = await startIcalBench({ ICAL_POLL_SECONDS: '1' });
  ({ app, platform } = bench);
});
after(() => bench.close());

it('fetches an import again on its own every ICAL_POLL_SECONDS, and its holds follow the feed', async () => {
  const hotel = await freshHotel(app);
  const night = (n: number) => addDays(localToday(app.t), n);
  platform.status = 200;
  platform.events([['ev-1@platform', night(20), night(23)]]);
  const call = operatorCalls(app);
  const created = await call('POST', `/hotels/${hotel.id}/ical-imports`, {
    roomTypeId: 'suite',
    url: platform.url,
    name: 'Platform',
  });
  assert.equal(created.statusCode, 201, created.body);
  assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(20), night(23)), 1);

  // The feed changes; no sync is asked for: the poller's next fetch (about a second on) finds it.
  platform.events([]);
  while ((await roomsLeft(app.t, hotel.id, 'suite', night(20), night(23))) !== 2) await sleep(100);
  const listed = await call('GET', `/hotels/${hotel.id}/ical-imports`);
  assert.equal(listed.json().data[0].lastFetch.events, 0);
});
