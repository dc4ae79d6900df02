/**
 * iCal holds on a scaled-out deployment (API.md 11.1): an import fetched by one process holds
 * rooms that the next search on another process sees within 1 second, and a moved event moves
 * them there too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FeedServer } from '../channels/feed-server.ts';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';
import { http, needsPostgres, type ServiceProcess, sleep, startTwoServices } from './support.ts';

describe('iCal holds across processes', () => {
  const hotel = makeHotel();
  let services: ServiceProcess[] = [];
  let platform: FeedServer;
  let operatorKey = '';
  let stop = async () => {};

  before(async () => {
    if (needsPostgres) return;
    platform = await FeedServer.start();
    ({ services, operatorKey, stop } = await startTwoServices([hotel], 'channels test', {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // Fetched on demand here: no poll runs during the test.
      ICAL_POLL_SECONDS: '3600',
    }));
  });
  after(async () => {
    await platform?.close();
    await stop();
  });

  test('an import on one process holds rooms the other process’s search sees within 1 s', {
    skip: needsPostgres,
  }, async () => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    const suitesLeft = async (checkIn: string, checkOut: string) => {
      const r = await http(b.baseUrl, 'POST', '/api/v1/booking/availability/search', {
        hotelId: hotel.id,
        checkIn,
        checkOut,
        adults: 2,
      });
      if (r.status !== 200) return 0;
      return (
        r.body.offers.find((o: { roomType: { id: string } }) => o.roomType.id === 'suite')?.available ?? 0
      );
    };
    const within1s = async (checkIn: string, checkOut: string, expected: number) => {
      const answeredAt = Date.now();
      let left = await suitesLeft(checkIn, checkOut);
      while (left !== expected && Date.now() - answeredAt < 1000) {
        await sleep(20);
        left = await suitesLeft(checkIn, checkOut);
      }
      return left;
    };
    const [d30, d31, d32, d33] = [daysFromNow(30), daysFromNow(31), daysFromNow(32), daysFromNow(33)];
    assert.equal(await suitesLeft(d30, d31), 2, 'B has read the nights into memory');
    const ics = (from: string, to: string) =>
      platform.events([['stay-1@platform', from as string, to as string]]);

    ics(d30, d32);
    const created = await http(
      a.baseUrl,
      'POST',
      `/api/v1/operator/hotels/${hotel.id}/ical-imports`,
      { roomTypeId: 'suite', url: platform.url, name: 'Platform' },
      { authorization: `Bearer ${operatorKey}` },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.lastFetch.status, 'ok', JSON.stringify(created.body));
    assert.equal(await within1s(d30, d31, 1), 1, 'the hold is seen on B within 1 s');

    ics(d32, d33);
    const synced = await http(
      a.baseUrl,
      'POST',
      `/api/v1/operator/ical-imports/${created.body.id}/sync`,
      undefined,
      {
        authorization: `Bearer ${operatorKey}`,
      },
    );
    assert.equal(synced.status, 200, JSON.stringify(synced.body));
    assert.equal(await within1s(d30, d31, 2), 2, 'released on B within 1 s');
    assert.equal(await within1s(d32, d33, 1), 1, 'moved on B within 1 s');
  });
});
