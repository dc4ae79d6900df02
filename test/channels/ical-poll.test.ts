/**
 * The iCal poller (docs/api.md §9.1) on the claim worker: an import is fetched again on its own,
 * every ICAL_POLL_SECONDS, with no sync asked for, and its holds follow the feed; a poll that
 * changed holds writes `ical_import.synced` (actor system), one that changed nothing writes none.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays, type Json, localToday, roomsLeft } from '../booking/helpers.ts';
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
  const imported = listed.json().data[0];
  assert.equal(imported.lastFetch.events, 0);

  // The audit trail (API.md 12): the creation's first fetch is the caller's, the poll the system's.
  const synced = async () => {
    const res = await call('GET', `/audit-log?hotelId=${hotel.id}&action=ical_import.synced`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Json[];
  };
  const [byPoll, byCreation, ...more] = await synced();
  assert.equal(more.length, 0);
  assert.deepEqual(byCreation?.actor, { type: 'key', id: byCreation?.actor.id, name: 'test root' });
  assert.deepEqual(byCreation?.details, { roomTypeId: 'suite', added: 1, removed: 0, events: 1 });
  assert.deepEqual(byPoll?.actor, { type: 'system', id: 'system', name: 'Innkeep' });
  assert.deepEqual(byPoll?.target, { type: 'ical_import', id: imported.id });
  assert.deepEqual(byPoll?.details, { roomTypeId: 'suite', added: 0, removed: 1, events: 0 });
  assert.equal(byPoll?.requestId, null);

  // Polls that find the same feed change nothing and write nothing.
  let fetchedAt = imported.lastFetch.at;
  for (let polls = 0; polls < 2; ) {
    await sleep(200);
    const now = (await call('GET', `/hotels/${hotel.id}/ical-imports`)).json().data[0];
    if (now.lastFetch.at !== fetchedAt) [polls, fetchedAt] = [polls + 1, now.lastFetch.at];
  }
  assert.equal((await synced()).length, 2);
});
