/**
 * The AlpineBits HotelData 2022-10 server (API.md 11.2) through HTTP: authentication, the
 * handshake, FreeRooms (the published samples, complete sets and deltas, refused below sold),
 * GuestRequests read and acknowledgement, and the refusals the standard defines. Every request
 * sent and every XML answer is validated against the standard's XML Schema (xmllint).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { addDays, book, cancel, type Json, localToday, reloadHotel, roomsLeft } from '../booking/helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { skipWithoutXmllint, validateAlpineBits } from '../helpers/xsd-validate.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import {
  ALPINEBITS,
  ackRequest,
  alpineBits,
  basic,
  freeRooms,
  multipart,
  ota,
  readRequest,
} from './alpinebits-client.ts';

const sample = (name: string) =>
  readFileSync(new URL(`../fixtures/alpinebits-samples/${name}.xml`, import.meta.url), 'utf8');

/** The hotel of the specification's samples: code "123", room category "DOUBLE". */
function frangartInn(): HotelDef {
  const base = makeHotel({ name: 'Frangart Inn' });
  const flex = base.ratePlans[0] as HotelDef['ratePlans'][number];
  return {
    ...base,
    id: '123',
    roomTypes: [{ id: 'DOUBLE', name: 'Double', count: 5, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 }],
    ratePlans: [{ ...flex, prices: { DOUBLE: { base: 10000, includedAdults: 2 } } }],
    restrictions: [],
  };
}

describe('AlpineBits HotelData 2022-10', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_WORKER: 'false' });
  });
  after(() => app.t.close());

  async function freshHotel(overrides: Partial<HotelDef> = {}): Promise<HotelDef> {
    const def = makeHotel(overrides);
    await reloadHotel(app.t, def);
    return def;
  }
  const night = (n: number) => addDays(localToday(app.t), n);
  async function calendarNight(hotelId: string, roomTypeId: string, date: string): Promise<Json> {
    const res = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/hotels/${hotelId}/calendar?from=${date}&to=${date}`,
      headers: auth(app.root),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().roomTypes.find((r: Json) => r.id === roomTypeId).nights[0];
  }
  const errorsOf = (xml: string) =>
    [...xml.matchAll(/<Error Type="13" Code="(\d+)">([^<]*)<\/Error>/g)].map((m) => m[1]);

  it('the schema check itself tells valid from invalid documents', { skip: skipWithoutXmllint }, async () => {
    assert.equal((await validateAlpineBits(sample('FreeRooms-OTA_HotelInvCountNotifRQ'))).valid, true);
    const bad = await validateAlpineBits(ota('OTA_PingRQ', '<Nonsense/>'));
    assert.equal(bad.valid, false);
    assert.match(bad.errors, /Nonsense/);
  });

  it('answers 401 without Basic credentials or with an unknown key, with a Basic challenge', async () => {
    const { body, contentType } = multipart([['action', 'OTA_Ping:Handshaking']]);
    for (const headers of [{}, basic(`ik_${'a'.repeat(52)}`), auth(app.root)]) {
      const res = await app.t.inject({
        method: 'POST',
        url: ALPINEBITS,
        headers: { ...headers, 'content-type': contentType, 'x-alpinebits-clientprotocolversion': '2022-10' },
        payload: body,
      });
      assert.equal(res.statusCode, 401, res.body);
      assert.match(res.body, /^ERROR:/);
      assert.match(String(res.headers['www-authenticate']), /^Basic realm="AlpineBits"/);
    }
  });

  it('handshakes: the intersection of versions, actions and capabilities, the echo unchanged', async () => {
    const announced = {
      versions: [
        {
          version: '2022-10',
          actions: [
            { action: 'action_OTA_Ping' },
            {
              action: 'action_OTA_HotelInvCountNotif',
              supports: [
                'OTA_HotelInvCountNotif_accept_rooms',
                'OTA_HotelInvCountNotif_accept_categories',
                'OTA_HotelInvCountNotif_accept_deltas',
              ],
            },
            { action: 'action_OTA_Read' },
            { action: 'action_OTA_HotelDescriptiveContentNotif_Inventory' },
          ],
        },
        { version: '2020-10', actions: [{ action: 'action_OTA_Ping' }] },
      ],
    };
    const echo = JSON.stringify(announced);
    const res = await alpineBits(
      app.t,
      app.root,
      'OTA_Ping:Handshaking',
      ota('OTA_PingRQ', `<EchoData>${echo}</EchoData>`, '8.000'),
    );
    assert.equal(res.statusCode, 200, res.body);
    const warning =
      /<Warning Type="11" Status="ALPINEBITS_HANDSHAKE">([^<]*)<\/Warning>/.exec(res.body)?.[1] ?? '';
    const decode = (s: string) => s.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
    assert.deepEqual(JSON.parse(decode(warning)), {
      versions: [
        {
          version: '2022-10',
          actions: [
            { action: 'action_OTA_Ping' },
            {
              action: 'action_OTA_HotelInvCountNotif',
              supports: ['OTA_HotelInvCountNotif_accept_categories', 'OTA_HotelInvCountNotif_accept_deltas'],
            },
            { action: 'action_OTA_Read' },
          ],
        },
      ],
    });
    const echoed = /<EchoData>([^<]*)<\/EchoData>/.exec(res.body)?.[1] ?? '';
    assert.deepEqual(JSON.parse(decode(echoed)), announced);

    const none = await alpineBits(
      app.t,
      app.root,
      'OTA_Ping:Handshaking',
      ota('OTA_PingRQ', `<EchoData>{"versions":[{"version":"2018-10"}]}</EchoData>`),
    );
    assert.equal(none.statusCode, 200);
    assert.match(none.body, /<Errors><Error Type="13"/);
  });

  it('refuses an unknown action, another version, a missing request and a DTD as the standard says', async () => {
    const unknown = await alpineBits(app.t, app.root, 'OTA_HotelResNotif:GuestRequests', null);
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.body, 'ERROR:unknown or missing action');
    const hotel = await freshHotel();
    const request = freeRooms(hotel.id, [{ roomTypeId: 'double', start: night(5), end: night(5), count: 1 }]);
    const old = await alpineBits(app.t, app.root, 'OTA_HotelInvCountNotif:FreeRooms', request, {
      version: '2020-10',
    });
    assert.equal(old.statusCode, 400);
    assert.match(old.body, /^ERROR:unsupported AlpineBits version/);
    const missing = await alpineBits(app.t, app.root, 'OTA_HotelInvCountNotif:FreeRooms', null);
    assert.equal(missing.statusCode, 400);

    // XXE and billion laughs: refused before parsing, nothing changes.
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${request.replace(/^<\?xml[^>]*>/, '').replace(`HotelCode="${hotel.id}"`, `HotelCode="&x;"`)}`;
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><OTA_PingRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1"><EchoData>&lol3;</EchoData></OTA_PingRQ>`;
    for (const [action, xml] of [
      ['OTA_HotelInvCountNotif:FreeRooms', xxe],
      ['OTA_Ping:Handshaking', laughs],
    ] as const) {
      const res = await alpineBits(app.t, app.root, action, xml, { invalidOnPurpose: true });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.body, /^ERROR:document type declarations and entities are not accepted/);
    }
    assert.equal((await calendarNight(hotel.id, 'double', night(5))).rooms, 10);
  });

  it('accepts the published FreeRooms samples: complete set, delta, closing seasons, reset', async () => {
    await reloadHotel(app.t, frangartInn());
    const send = (name: string) =>
      alpineBits(app.t, app.root, 'OTA_HotelInvCountNotif:FreeRooms', sample(name));
    const complete = await send('FreeRooms-OTA_HotelInvCountNotifRQ');
    assert.equal(complete.statusCode, 200, complete.body);
    assert.match(complete.body, /<OTA_HotelInvCountNotifRS[^>]*><Success\/><\/OTA_HotelInvCountNotifRS>/);
    const rooms = async (date: string) => (await calendarNight('123', 'DOUBLE', date)).rooms;
    assert.deepEqual(
      [
        await rooms('2020-08-01'),
        await rooms('2020-08-10'),
        await rooms('2020-08-15'),
        await rooms('2020-08-25'),
      ],
      [3, 3, 0, 1],
    );

    assert.equal((await send('FreeRooms-OTA_HotelInvCountNotifRQ-delta')).statusCode, 200);
    assert.deepEqual(
      [await rooms('2020-08-01'), await rooms('2020-08-15'), await rooms('2020-08-25')],
      [3, 1, 0],
    );

    assert.equal((await send('FreeRooms-OTA_HotelInvCountNotifRQ-closing_seasons')).statusCode, 200);
    assert.equal((await calendarNight('123', 'DOUBLE', '2020-09-15')).restrictions.stopSell, true);

    const reset = await send('FreeRooms-OTA_HotelInvCountNotifRQ-empty');
    assert.equal(reset.statusCode, 200, reset.body);
  });

  it('sets rooms that search sees at once, and refuses the whole message below what is sold', async () => {
    const hotel = await freshHotel();
    const set = await alpineBits(
      app.t,
      app.root,
      'OTA_HotelInvCountNotif:FreeRooms',
      freeRooms(hotel.id, [
        { roomTypeId: 'double', start: night(10), end: night(12), count: 4 },
        { roomTypeId: 'suite', start: night(10), end: night(10) },
      ]),
    );
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(await roomsLeft(app.t, hotel.id, 'double', night(10), night(13)), 4);
    assert.equal(await roomsLeft(app.t, hotel.id, 'suite', night(10), night(11)), 0);

    await book(app.t, {
      hotelId: hotel.id,
      checkIn: night(11),
      checkOut: night(12),
      adults: 3,
      rooms: 3,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const below = await alpineBits(
      app.t,
      app.root,
      'OTA_HotelInvCountNotif:FreeRooms',
      freeRooms(hotel.id, [
        { roomTypeId: 'double', start: night(10), end: night(10), count: 1 },
        { roomTypeId: 'double', start: night(11), end: night(11), count: 2 },
      ]),
    );
    assert.equal(below.statusCode, 200);
    assert.deepEqual(errorsOf(below.body), ['322']);
    assert.match(below.body, new RegExp(`double on ${night(11)}: 3 rooms are already sold`));
    assert.equal((await calendarNight(hotel.id, 'double', night(10))).rooms, 4, 'nothing changed');

    const unknown = await alpineBits(
      app.t,
      app.root,
      'OTA_HotelInvCountNotif:FreeRooms',
      freeRooms(hotel.id, [{ roomTypeId: 'attic', start: night(10), end: night(10), count: 1 }]),
    );
    assert.deepEqual(errorsOf(unknown.body), ['402']);
    const { key } = await makeKey(app, { scopes: ['inventory:write'], hotelIds: [app.hotels[0].id] });
    const foreign = await alpineBits(
      app.t,
      key,
      'OTA_HotelInvCountNotif:FreeRooms',
      freeRooms(hotel.id, [{ roomTypeId: 'double', start: night(10), end: night(10), count: 1 }]),
    );
    assert.deepEqual(errorsOf(foreign.body), ['392']);
    const readOnly = await makeKey(app, { scopes: ['inventory:read'] });
    const forbidden = await alpineBits(
      app.t,
      readOnly.key,
      'OTA_HotelInvCountNotif:FreeRooms',
      freeRooms(hotel.id, [{ roomTypeId: 'double', start: night(10), end: night(10), count: 1 }]),
    );
    assert.equal(forbidden.statusCode, 403);
  });

  it("carries a reservation's promotion code as the hotel's SpecialRequest, valid against the schema", async () => {
    const hotel = await freshHotel({
      promotions: [{ code: 'SPRING10', name: 'Spring offer', discount: { percent: 10 } }],
    });
    const { reservation } = await book(app.t, {
      hotelId: hotel.id,
      checkIn: night(20),
      checkOut: night(22),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
      promoCode: 'spring10',
    } as Parameters<typeof book>[1]);
    const read = await alpineBits(app.t, app.root, 'OTA_Read:GuestRequests', readRequest(hotel.id), {
      clientId: 'promo-pms',
    });
    assert.equal(read.statusCode, 200, read.body);
    assert.match(read.body, new RegExp(`ID="${reservation.id}"`));
    // 2 nights × 12000 = 24000 of rooms: 10% = 24.00 EUR off.
    assert.match(
      read.body,
      /<SpecialRequests><SpecialRequest RequestCode="SPRING10" CodeContext="HOTEL"><Text TextFormat="PlainText">Promotion code SPRING10 \(Spring offer\): -24\.00 EUR<\/Text><\/SpecialRequest><\/SpecialRequests>/,
    );
  });

  it('sends reservations through GuestRequests until acknowledged, and again once changed', async () => {
    const hotel = await freshHotel();
    const { reservation, token } = await book(
      app.t,
      {
        hotelId: hotel.id,
        checkIn: night(20),
        checkOut: night(23),
        adults: 3,
        children: [7],
        rooms: 2,
        services: ['breakfast'],
        roomTypeId: 'double',
        ratePlanId: 'flex',
      },
      { specialRequests: 'A quiet room, please & thank you' },
    );
    const code = reservation.id as string;
    const read = (clientId = 'test-pms') =>
      alpineBits(app.t, app.root, 'OTA_Read:GuestRequests', readRequest(hotel.id), { clientId });

    const first = await read();
    assert.equal(first.statusCode, 200, first.body);
    assert.match(
      first.body,
      new RegExp(`<HotelReservation [^>]*ResStatus="Reserved"><UniqueID Type="14" ID="${code}"/>`),
    );
    assert.equal([...first.body.matchAll(/<RoomStay>/g)].length, 2, 'one RoomStay per room');
    assert.match(
      first.body,
      /<RoomType RoomTypeCode="double"\/><\/RoomTypes><RatePlans><RatePlan RatePlanCode="flex"\/>/,
    );
    assert.match(first.body, new RegExp(`<TimeSpan Start="${night(20)}" End="${night(23)}"/>`));
    assert.match(first.body, /<GuestCount Count="1" Age="7"\/>/);
    assert.match(first.body, /<GivenName>[^<]+<\/GivenName><Surname>[^<]+<\/Surname>/);
    assert.match(
      first.body,
      /<Comment Name="included services"><ListItem ListItem="1" Language="en">Breakfast/,
    );
    assert.match(
      first.body,
      /<Comment Name="customer comment"><Text>A quiet room, please &amp; thank you<\/Text>/,
    );
    const totals = [...first.body.matchAll(/<Total AmountAfterTax="([0-9.]+)" CurrencyCode="EUR"\/>/g)].map(
      (m) => Number(m[1]),
    );
    assert.equal(Math.round(totals.reduce((a, b) => a + b, 0) * 100), reservation.total.amount);

    assert.match((await read()).body, new RegExp(`ID="${code}"`), 'sent again until acknowledged');
    const ack = await alpineBits(
      app.t,
      app.root,
      'OTA_NotifReport:GuestRequests',
      ackRequest([code, 'NOSUCHCODE']),
    );
    assert.equal(ack.statusCode, 200, ack.body);
    assert.match(ack.body, /<Success\/><Warnings><Warning Type="11" RecordID="NOSUCHCODE">/);
    assert.doesNotMatch((await read()).body, new RegExp(`ID="${code}"`), 'not sent once acknowledged');
    assert.match(
      (await read('another-pms')).body,
      new RegExp(`ID="${code}"`),
      'other client ids have their own',
    );

    const cancelled = await cancel(app.t, code, token);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const after = await read();
    assert.match(
      after.body,
      new RegExp(`ResStatus="Cancelled"><UniqueID Type="15" ID="${code}"/></HotelReservation>`),
    );
    await alpineBits(app.t, app.root, 'OTA_NotifReport:GuestRequests', ackRequest([code]));
    assert.doesNotMatch((await read()).body, new RegExp(`ID="${code}"`));

    const { key } = await makeKey(app, { scopes: ['inventory:write'] });
    assert.equal(
      (await alpineBits(app.t, key, 'OTA_Read:GuestRequests', readRequest(hotel.id))).statusCode,
      403,
    );
  });
});
