/**
 * iCal feeds (API.md 11.1) through HTTP: the export's runs, UIDs and ETag; imports from a feed the
 * test serves itself (holds, moved and removed events, no echo of our own UIDs, a conflict, a
 * failing feed keeping the last holds), seen by search, quote and the calendar at once.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { addDays, book, cancel, type Json, localToday, roomsLeft } from '../booking/helpers.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import type { FeedServer } from './feed-server.ts';
import { freshHotel as freshHotelIn, type IcalBench, operatorCalls, startIcalBench } from './ical-bench.ts';

describe('iCal feeds', () => {
  let app: OperatorApp;
  let platform: FeedServer;
  let bench: IcalBench;
  before(async () => {
    bench = await startIcalBench();
    ({ app, platform } = bench);
  });
  after(() => bench.close());

  const freshHotel = (overrides: Partial<HotelDef> = {}) => freshHotelIn(app, overrides);
  const night = (n: number) => addDays(localToday(app.t), n);
  const call = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: unknown) =>
    operatorCalls(app)(method, url, payload);
  const fetchUrl = (url: string, headers: Record<string, string> = {}) =>
    app.t.inject({ method: 'GET', url: new URL(url).pathname, headers });
  const events = (body: string) =>
    [...body.matchAll(/BEGIN:VEVENT[\s\S]*?END:VEVENT/g)].map(([e]) => ({
      uid: /UID:(.*)\r\n/.exec(e)?.[1],
      start: /DTSTART;VALUE=DATE:(\d{8})/.exec(e)?.[1],
      end: /DTEND;VALUE=DATE:(\d{8})/.exec(e)?.[1],
      summary: /SUMMARY:(.*)\r\n/.exec(e)?.[1],
    }));
  const compact = (date: string) => date.replaceAll('-', '');
  async function calendarNight(hotelId: string, roomTypeId: string, date: string): Promise<Json> {
    const res = await call('GET', `/hotels/${hotelId}/calendar?from=${date}&to=${date}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().roomTypes.find((r: Json) => r.id === roomTypeId).nights[0];
  }
  async function importFeed(hotelId: string, roomTypeId = 'suite'): Promise<Json> {
    const res = await call('POST', `/hotels/${hotelId}/ical-imports`, {
      roomTypeId,
      url: platform.url,
      name: 'Platform',
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  }
  const sync = async (id: string) => {
    const res = await call('POST', `/ical-imports/${id}/sync`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const suiteStay = (hotelId: string, from: number, nights: number) => ({
    hotelId,
    checkIn: night(from),
    checkOut: night(from + nights),
    adults: 2,
    roomTypeId: 'suite',
    ratePlanId: 'flex',
  });

  it('exports the runs of unsellable nights with stable UIDs, an ETag, and 404 once deleted', async () => {
    const hotel = await freshHotel();
    const created = await call('POST', `/hotels/${hotel.id}/ical-feeds`, { roomTypeId: 'suite' });
    assert.equal(created.statusCode, 201, created.body);
    const feed = created.json();
    assert.match(feed.id, /^icf_/);
    assert.match(feed.url, /\/api\/v1\/ical\/ict_[0-9a-z]{32}\.ics$/);
    const listed = await call('GET', `/hotels/${hotel.id}/ical-feeds`);
    assert.deepEqual(listed.json().data, [{ id: feed.id, roomTypeId: 'suite', createdAt: feed.createdAt }]);

    const empty = await fetchUrl(feed.url);
    assert.equal(empty.statusCode, 200, empty.body);
    assert.equal(empty.headers['content-type'], 'text/calendar; charset=utf-8');
    assert.match(empty.body, /^BEGIN:VCALENDAR\r\nVERSION:2.0\r\n/);
    assert.deepEqual(events(empty.body), []);

    // Both suites sold for nights 10–11, then a stop-sell on night 12: one run of three nights.
    await book(app.t, { ...suiteStay(hotel.id, 10, 2), rooms: 2 });
    const first = await fetchUrl(feed.url);
    assert.deepEqual(
      events(first.body).map((e) => [e.start, e.end, e.summary]),
      [[compact(night(10)), compact(night(12)), 'Not available']],
    );
    const uid = events(first.body)[0]?.uid as string;
    assert.match(uid, /^innkeep-.*-icf_[0-9a-z]+@/);
    const again = await fetchUrl(feed.url, { 'if-none-match': String(first.headers.etag) });
    assert.equal(again.statusCode, 304);

    const patched = await app.t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/hotels/${hotel.id}/calendar`,
      headers: auth(app.root),
      payload: {
        updates: [{ roomTypeIds: ['suite'], from: night(12), to: night(12), set: { stopSell: true } }],
      },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const grown = await fetchUrl(feed.url, { 'if-none-match': String(first.headers.etag) });
    assert.equal(grown.statusCode, 200);
    assert.notEqual(grown.headers.etag, first.headers.etag);
    assert.deepEqual(
      events(grown.body).map((e) => [e.uid, e.start, e.end]),
      [[uid, compact(night(10)), compact(night(13))]],
      'the run kept its UID while it grew',
    );

    assert.equal((await call('DELETE', `/ical-feeds/${feed.id}`)).statusCode, 204);
    assert.equal((await fetchUrl(feed.url)).statusCode, 404);
    assert.equal(
      (await fetchUrl(feed.url.replace(/[0-9a-z]{32}\.ics$/, `${'a'.repeat(32)}.ics`))).statusCode,
      404,
    );
  });

  it('holds a room per event night, moves and releases holds as the feed changes', async () => {
    const hotel = await freshHotel();
    platform.status = 200;
    platform.events([['ev-1@platform', night(20), night(23)]]);
    const imported = await importFeed(hotel.id);
    assert.match(imported.id, /^ici_/);
    assert.equal(imported.lastFetch.status, 'ok', JSON.stringify(imported));
    assert.equal(imported.lastFetch.events, 1);

    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(20), night(23)), 1);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(23), night(24)), 2);
    const held = await calendarNight(hotel.id, 'suite', night(21));
    assert.deepEqual([held.rooms, held.sold, held.left, held.external, held.conflicts], [2, 0, 1, 1, 0]);

    // The event moves two nights later.
    platform.events([['ev-1@platform', night(22), night(25)]]);
    await sync(imported.id);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(20), night(22)), 2);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(22), night(25)), 1);

    // A second event on the same nights takes the last suite: sold out.
    platform.events([
      ['ev-1@platform', night(22), night(25)],
      ['ev-2@platform', night(24), night(26)],
    ]);
    await sync(imported.id);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(24), night(25)), 0);

    // Both disappear: every room is back.
    platform.events([]);
    const emptied = await sync(imported.id);
    assert.equal(emptied.lastFetch.events, 0);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(20), night(27)), 2);
    const listed = await call('GET', `/hotels/${hotel.id}/ical-imports`);
    assert.equal(listed.json().data[0].id, imported.id);
    assert.equal((await call('DELETE', `/ical-imports/${imported.id}`)).statusCode, 204);
  });

  it('ignores its own feed’s events (no echo) when a platform exports them back', async () => {
    const hotel = await freshHotel();
    await book(app.t, { ...suiteStay(hotel.id, 30, 2), rooms: 2 });
    const feed = (await call('POST', `/hotels/${hotel.id}/ical-feeds`, { roomTypeId: 'suite' })).json();
    const exported = await fetchUrl(feed.url);
    platform.status = 200;
    platform.body = exported.body; // the platform exports our blocks with our UIDs
    const imported = await importFeed(hotel.id);
    assert.equal(imported.lastFetch.events, 0, JSON.stringify(imported));
    const n = await calendarNight(hotel.id, 'suite', night(30));
    assert.deepEqual([n.sold, n.external, n.conflicts], [2, 0, 0]);
    await call('DELETE', `/ical-imports/${imported.id}`);
  });

  it('keeps a hold that finds the room sold as a conflict, with a channel.conflict event', async () => {
    const hotel = await freshHotel();
    await book(app.t, { ...suiteStay(hotel.id, 40, 1), rooms: 2 });
    platform.status = 200;
    platform.events([['clash@platform', night(40), night(42)]]);
    const imported = await importFeed(hotel.id);
    assert.equal(imported.lastFetch.conflicts, 1);
    const clash = await calendarNight(hotel.id, 'suite', night(40));
    assert.deepEqual([clash.rooms, clash.sold, clash.left, clash.external, clash.conflicts], [2, 2, 0, 1, 1]);
    const fits = await calendarNight(hotel.id, 'suite', night(41));
    assert.deepEqual([fits.sold, fits.left, fits.external, fits.conflicts], [0, 1, 1, 0]);
    const feed = await call('GET', `/events?types=channel.conflict`);
    const event = feed.json().data.find((e: Json) => e.hotelId === hotel.id);
    assert.ok(event, feed.body);
    assert.deepEqual(event.data, {
      importId: imported.id,
      name: 'Platform',
      roomTypeId: 'suite',
      nights: [{ date: night(40), conflicts: 1 }],
    });
    // Syncing the same feed again records no second event.
    await sync(imported.id);
    const later = await call('GET', `/events?types=channel.conflict`);
    assert.equal(later.json().data.filter((e: Json) => e.hotelId === hotel.id).length, 1);
    await call('DELETE', `/ical-imports/${imported.id}`);
    const released = await calendarNight(hotel.id, 'suite', night(40));
    assert.deepEqual([released.sold, released.external, released.conflicts], [2, 0, 0]);
  });

  it('gives a room freed on an overbooked night to the hold at once: cancellation, more rooms', async () => {
    const hotel = await freshHotel();
    const first = await book(app.t, { ...suiteStay(hotel.id, 44, 1), rooms: 1 });
    const second = await book(app.t, { ...suiteStay(hotel.id, 44, 1), rooms: 1 });
    platform.status = 200;
    platform.events([
      ['one@platform', night(44), night(45)],
      ['two@platform', night(44), night(45)],
    ]);
    const imported = await importFeed(hotel.id);
    const full = await calendarNight(hotel.id, 'suite', night(44));
    assert.deepEqual([full.rooms, full.sold, full.left, full.external, full.conflicts], [2, 2, 0, 2, 2]);
    // A guest cancels: the other channel's guest has that room now, not the next buyer.
    assert.equal((await cancel(app.t, first.reservation.id, first.token)).statusCode, 200);
    const one = await calendarNight(hotel.id, 'suite', night(44));
    assert.deepEqual([one.rooms, one.sold, one.left, one.external, one.conflicts], [2, 1, 0, 2, 1]);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(44), night(45)), 0);
    // The hotel adds a room (the calendar): the last hold takes it.
    const patched = await app.t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/hotels/${hotel.id}/calendar`,
      headers: auth(app.root),
      payload: { updates: [{ roomTypeIds: ['suite'], from: night(44), to: night(44), set: { rooms: 3 } }] },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const both = await calendarNight(hotel.id, 'suite', night(44));
    assert.deepEqual([both.rooms, both.sold, both.left, both.external, both.conflicts], [3, 1, 0, 2, 0]);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(44), night(45)), 0);
    // The last Innkeep guest cancels too: one room is for sale again.
    assert.equal((await cancel(app.t, second.reservation.id, second.token)).statusCode, 200);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(44), night(45)), 1);
    await call('DELETE', `/ical-imports/${imported.id}`);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(44), night(45)), 3);
  });

  it('keeps the last good holds when a fetch fails', async () => {
    const hotel = await freshHotel();
    platform.status = 200;
    platform.events([['kept@platform', night(50), night(52)]]);
    const imported = await importFeed(hotel.id);
    platform.status = 500;
    const failed = await sync(imported.id);
    assert.equal(failed.lastFetch.status, 'failed');
    assert.match(failed.lastFetch.error, /500/);
    assert.equal(failed.lastFetch.events, 1);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(50), night(52)), 1);
    platform.status = 200;
    platform.body = 'not a calendar';
    assert.equal((await sync(imported.id)).lastFetch.status, 'failed');
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(50), night(52)), 1);
    await call('DELETE', `/ical-imports/${imported.id}`);
  });

  it('stores why a fetch failed as a class and a code, never the address it reached', async () => {
    const hotel = await freshHotel();
    // A port nobody listens on (opened, then closed), and TLS spoken to the plain HTTP platform.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const cases = [
      [`http://127.0.0.1:${port}/calendar.ics`, 'connection refused (ECONNREFUSED)'],
      [platform.url.replace('http:', 'https:'), /^tls: no secure connection \([A-Z_]+\)$/],
    ] as const;
    for (const [url, reason] of cases) {
      const created = await call('POST', `/hotels/${hotel.id}/ical-imports`, {
        roomTypeId: 'suite',
        url,
        name: 'Broken',
      });
      assert.equal(created.statusCode, 201, created.body);
      const failed = await sync(created.json().id);
      assert.equal(failed.lastFetch.status, 'failed');
      if (typeof reason === 'string') assert.equal(failed.lastFetch.error, reason);
      else assert.match(failed.lastFetch.error, reason);
      assert.doesNotMatch(failed.lastFetch.error, /127\.0\.0\.1|:\d{2,5}\b/);
      await call('DELETE', `/ical-imports/${created.json().id}`);
    }
  });

  it('refuses a private feed address unless allowed, and an unknown room type', async () => {
    const hotel = await freshHotel();
    const bad = await call('POST', `/hotels/${hotel.id}/ical-imports`, {
      roomTypeId: 'penthouse',
      url: platform.url,
      name: 'x',
    });
    assert.equal(bad.statusCode, 400, bad.body);
    const strict = await startOperatorApp({ WEBHOOK_WORKER: 'false' });
    try {
      const res = await strict.t.inject({
        method: 'POST',
        url: `${OPERATOR}/hotels/${strict.hotels[0].id}/ical-imports`,
        headers: auth(strict.root),
        payload: { roomTypeId: 'suite', url: platform.url, name: 'x' },
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'validation_error');
    } finally {
      await strict.t.close();
    }
  });
});
