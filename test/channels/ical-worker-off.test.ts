/**
 * ICAL_WORKER=false (a process kept out of the iCal poller, as MAIL_WORKER and WEBHOOK_WORKER keep
 * one out of theirs): an import is fetched when it is made and when a sync is asked, never on its
 * own. A file of its own: the test database is the file's, and a poller of another app on it would
 * fetch the import.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays, localToday, roomsLeft } from '../booking/helpers.ts';
import { freshHotel, operatorCalls, startIcalBench } from './ical-bench.ts';

it('with ICAL_WORKER=false fetches an import only when it is made and when a sync is asked', async () => {
  const quiet = await startIcalBench({ ICAL_POLL_SECONDS: '1', ICAL_WORKER: 'false' });
  try {
    const hotel = await freshHotel(quiet.app);
    const night = (n: number) => addDays(localToday(quiet.app.t), n);
    quiet.platform.status = 200;
    quiet.platform.events([['ev-1@platform', night(20), night(23)]]);
    const call = operatorCalls(quiet.app);
    const created = await call('POST', `/hotels/${hotel.id}/ical-imports`, {
      roomTypeId: 'suite',
      url: quiet.platform.url,
      name: 'Platform',
    });
    assert.equal(created.statusCode, 201, created.body);
    const fetchedAt = created.json().lastFetch.at;
    quiet.platform.events([]);
    // Three poll intervals: a poller would have fetched the import again twice by now.
    await sleep(3000);
    const listed = (await call('GET', `/hotels/${hotel.id}/ical-imports`)).json().data[0];
    assert.equal(listed.lastFetch.at, fetchedAt, 'not fetched again on its own');
    assert.equal(await roomsLeft(quiet.app.t, hotel.id, 'suite', night(20), night(23)), 1);
    const synced = await call('POST', `/ical-imports/${created.json().id}/sync`);
    assert.equal(synced.statusCode, 200, synced.body);
    assert.equal(await roomsLeft(quiet.app.t, hotel.id, 'suite', night(20), night(23)), 2);
  } finally {
    await quiet.close();
  }
});
