/**
 * The AlpineBits endpoint (API.md 11.2) against clients that misbehave or share a client id:
 * acknowledgements belong to the operator key and client id that made them, GuestRequests answers
 * are never cached, and XML the parser cannot read is the client's error (the standard's
 * `ERROR:` answer, or `Errors` for RatePlans), never a 500. Every request meant to be valid and
 * every XML answer is checked against the 2022-10 schema (xmllint).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, book, localToday } from '../booking/helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { makeKey, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import {
  ALPINEBITS,
  ackRequest,
  alpineBits,
  basic,
  multipart,
  ota,
  readRequest,
} from './alpinebits-client.ts';

describe('AlpineBits: acknowledgements per key, no caching, unreadable XML', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_WORKER: 'false' }, [
      makeHotel({ name: 'Harbour View' }),
      makeHotel({ name: 'Old Town' }),
    ]);
  });
  after(() => app.t.close());
  const night = (n: number) => addDays(localToday(app.t), n);

  it('another key sending the same client id acknowledges for itself only', async () => {
    const hotel = app.hotels[0];
    const { reservation } = await book(app.t, {
      hotelId: hotel.id,
      checkIn: night(30),
      checkOut: night(32),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const code = reservation.id as string;
    const pms = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [hotel.id], name: 'PMS' });
    const other = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [hotel.id], name: 'other' });
    const read = (key: string) =>
      alpineBits(app.t, key, 'OTA_Read:GuestRequests', readRequest(hotel.id), { clientId: 'the-pms' });
    const ack = (key: string) =>
      alpineBits(app.t, key, 'OTA_NotifReport:GuestRequests', ackRequest([code]), { clientId: 'the-pms' });

    const first = await read(pms.key);
    assert.equal(first.statusCode, 200, first.body);
    assert.match(first.body, new RegExp(`ID="${code}"`));
    assert.equal(first.headers['cache-control'], 'no-store', 'reservations are never cached');

    // The other key, with the PMS's client id, acknowledges: for itself only.
    const foreign = await ack(other.key);
    assert.equal(foreign.statusCode, 200, foreign.body);
    assert.doesNotMatch(foreign.body, /<Warning/);
    assert.match((await read(pms.key)).body, new RegExp(`ID="${code}"`), 'the PMS still gets it');
    assert.doesNotMatch((await read(other.key)).body, new RegExp(`ID="${code}"`), 'the other key acked it');

    assert.equal((await ack(pms.key)).statusCode, 200);
    assert.doesNotMatch((await read(pms.key)).body, new RegExp(`ID="${code}"`), 'acked by the PMS now');
    // Without a client id each key stands for itself too (its id is the client id).
    const bare = await alpineBits(app.t, pms.key, 'OTA_Read:GuestRequests', readRequest(hotel.id), {
      clientId: '',
    });
    assert.match(bare.body, new RegExp(`ID="${code}"`));
  });

  it('refusals carry no-store as well', async () => {
    const { body, contentType } = multipart([['action', 'OTA_Read:GuestRequests']]);
    const res = await app.t.inject({
      method: 'POST',
      url: ALPINEBITS,
      headers: { ...basic('ik_nosuchkey'), 'content-type': contentType },
      payload: body,
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  it('XML the parser rejects (reserved names, deep nesting) is the client’s error, never a 500', async () => {
    const hotel = app.hotels[1];
    const deep = (root: string, depth: number) =>
      `<?xml version="1.0" encoding="UTF-8"?><${root} xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.000">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</${root}>`;
    const unreadable: Array<[string, string]> = [
      ['proto root', '<__proto__/>'],
      ['proto inside', ota('OTA_PingRQ', '<__proto__/>')],
      [
        'constructor',
        ota('OTA_ReadRQ', `<ReadRequests><constructor HotelCode="${hotel.id}"/></ReadRequests>`),
      ],
      [
        'prototype-like attribute value path',
        ota('OTA_NotifReportRQ', '<Success/><prototype/><__proto__ x="1"/>'),
      ],
      ['deep nesting', deep('OTA_HotelInvCountNotifRQ', 5_000)],
      ['very deep nesting', deep('OTA_PingRQ', 100_000)],
    ];
    const actions = [
      'OTA_Ping:Handshaking',
      'OTA_HotelInvCountNotif:FreeRooms',
      'OTA_Read:GuestRequests',
      'OTA_NotifReport:GuestRequests',
    ];
    for (const [what, xml] of unreadable) {
      for (const action of actions) {
        const res = await alpineBits(app.t, app.root, action, xml, { invalidOnPurpose: true });
        assert.equal(res.statusCode, 400, `${what} to ${action}: ${res.statusCode} ${res.body}`);
        assert.match(res.body, /^ERROR:/);
      }
      // RatePlans answers its own Errors outcome (code 450), as for any message it cannot apply.
      const plans = await alpineBits(app.t, app.root, 'OTA_HotelRatePlanNotif:RatePlans', xml, {
        invalidOnPurpose: true,
      });
      assert.equal(plans.statusCode, 200, `${what} to RatePlans: ${plans.body}`);
      assert.match(plans.body, /<Error Type="13" Code="450">/);
    }
    // The service is still there.
    const health = await app.t.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
  });
});
