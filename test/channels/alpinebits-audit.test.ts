/**
 * What a channel changes through AlpineBits is the channel's act in the audit trail (API.md 12):
 * RatePlans writes `rate_plans.updated`, FreeRooms `calendar.updated`, each in its message's
 * transaction with the key's channel as actor; a refused message writes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, type Json, localToday } from '../booking/helpers.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { planHotel } from '../rate-plans/plan-hotel.ts';
import { alpineBits, ota } from './alpinebits-client.ts';

const ratePlan = (hotelId: string, type: 'New' | 'Remove', code: string, roomTypeId: string, from: string) =>
  ota(
    'OTA_HotelRatePlanNotifRQ',
    `<RatePlans HotelCode="${hotelId}"><RatePlan RatePlanNotifType="${type}" CurrencyCode="EUR" RatePlanCode="${code}">${
      type === 'Remove'
        ? ''
        : `<Rates><Rate RateTimeUnit="Day" UnitMultiplier="1"><BaseByGuestAmts><BaseByGuestAmt Type="7"/></BaseByGuestAmts></Rate>` +
          `<Rate InvTypeCode="${roomTypeId}" Start="${from}" End="${addDays(from, 5)}"><BaseByGuestAmts>` +
          `<BaseByGuestAmt NumberOfGuests="2" AgeQualifyingCode="10" AmountAfterTax="96"/></BaseByGuestAmts></Rate></Rates>` +
          `<Description Name="title"><Text TextFormat="PlainText" Language="en">Audited</Text></Description>`
    }</RatePlan></RatePlans>`,
  );

const freeRooms = (hotelId: string, from: string, count: number) =>
  ota(
    'OTA_HotelInvCountNotifRQ',
    `<Inventories HotelCode="${hotelId}"><Inventory><StatusApplicationControl Start="${from}" End="${from}" InvTypeCode="double"/><InvCounts><InvCount CountType="2" Count="${count}"/></InvCounts></Inventory></Inventories>`,
    '4',
  );

describe('AlpineBits changes in the audit trail', () => {
  let app: OperatorApp;
  let channel: { id: string; key: string };
  let hotelId: string;
  let otherHotel: string;
  before(async () => {
    app = await startOperatorApp({}, [planHotel(), planHotel()]);
    [hotelId, otherHotel] = [app.hotels[0].id, app.hotels[1].id];
    channel = await makeKey(app, {
      scopes: ['inventory:write'],
      hotelIds: [hotelId],
      name: 'Channel manager',
    });
  });
  after(() => app.t.close());

  const entries = async (action: string): Promise<Json[]> => {
    const res = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/audit-log?actorId=${channel.id}&action=${action}`,
      headers: auth(app.root),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const actor = () => ({ type: 'channel', id: channel.id, name: 'AlpineBits: Channel manager' });

  it('RatePlans: rate_plans.updated by the channel; a refused message writes none', async () => {
    const from = addDays(localToday(app.t), 20);
    const refusals = [
      ratePlan(hotelId, 'New', 'AUD-1', 'nosuch', from),
      ratePlan(otherHotel, 'New', 'AUD-1', 'double', from),
    ];
    for (const xml of refusals) {
      const refused = await alpineBits(app.t, channel.key, 'OTA_HotelRatePlanNotif:RatePlans', xml);
      assert.match(refused.body, /<Error /, refused.body);
    }
    assert.deepEqual(await entries('rate_plans.updated'), []);

    const made = await alpineBits(
      app.t,
      channel.key,
      'OTA_HotelRatePlanNotif:RatePlans',
      ratePlan(hotelId, 'New', 'AUD-1', 'double', from),
    );
    assert.match(made.body, /<Success\/>/, made.body);
    const removed = await alpineBits(
      app.t,
      channel.key,
      'OTA_HotelRatePlanNotif:RatePlans',
      ratePlan(hotelId, 'Remove', 'AUD-1', 'double', from),
    );
    assert.match(removed.body, /<Success\/>/, removed.body);

    const [second, first, ...more] = await entries('rate_plans.updated');
    assert.equal(more.length, 0);
    for (const entry of [first, second]) {
      assert.deepEqual(entry?.actor, actor());
      assert.equal(entry?.hotelId, hotelId);
      assert.deepEqual(entry?.target, { type: 'rate_plans', id: hotelId });
    }
    assert.deepEqual(first?.details, {
      completeSet: false,
      ratePlans: 1,
      new: ['AUD-1'],
      overlaid: [],
      removed: [],
    });
    assert.deepEqual(second?.details, {
      completeSet: false,
      ratePlans: 1,
      new: [],
      overlaid: [],
      removed: ['AUD-1'],
    });
  });

  it('FreeRooms: calendar.updated by the channel; a refused message writes none', async () => {
    const night = addDays(localToday(app.t), 30);
    const refused = await alpineBits(
      app.t,
      channel.key,
      'OTA_HotelInvCountNotif:FreeRooms',
      freeRooms(otherHotel, night, 1),
    );
    assert.match(refused.body, /<Error /, refused.body);
    assert.deepEqual(await entries('calendar.updated'), []);

    const made = await alpineBits(
      app.t,
      channel.key,
      'OTA_HotelInvCountNotif:FreeRooms',
      freeRooms(hotelId, night, 1),
    );
    assert.match(made.body, /<Success\/>/, made.body);
    const [entry, ...more] = await entries('calendar.updated');
    assert.equal(more.length, 0);
    assert.deepEqual(entry?.actor, actor());
    assert.deepEqual(entry?.target, { type: 'calendar', id: hotelId });
    assert.deepEqual(entry?.details, { reset: null, cells: 1, from: night, to: night });
  });
});
