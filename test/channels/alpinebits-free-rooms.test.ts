/**
 * FreeRooms at its largest (API.md 11.2): a message over 50,000 room-type nights is refused whole
 * with the standard's `Errors` before anything is written; one just under it is applied in full,
 * set-based, no statement of its transaction handling more than a bounded number of cells (so the
 * embedded engine's event loop turns between them, whatever the number of `Inventory` elements).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database, Transaction } from '../../src/infra/db/database.ts';
import { addDays, type Json, localToday } from '../booking/helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { alpineBits, ota } from './alpinebits-client.ts';

/** Every transaction's statements, with the longest array parameter of each (the cells it handles). */
function statementLog() {
  const transactions: Array<Array<{ sql: string; cells: number }>> = [];
  /** The next transaction's first statement runs into the server's statement timeout. */
  let timeOutNext = false;
  const wrap = (db: Database): Database => ({
    ...db,
    transaction: (fn) =>
      db.transaction((tx) => {
        const log: Array<{ sql: string; cells: number }> = [];
        transactions.push(log);
        let timeOut = timeOutNext;
        timeOutNext = false;
        const logged: Transaction = {
          ...tx,
          query: async (sql, params) => {
            if (timeOut) {
              // A statement the server cancels (57014): SET LOCAL ends with the transaction.
              timeOut = false;
              await tx.query('SET LOCAL statement_timeout = 100');
              await tx.query('SELECT pg_sleep(60)');
            }
            const cells = Math.max(0, ...(params ?? []).map((p) => (Array.isArray(p) ? p.length : 0)));
            log.push({ sql, cells });
            return tx.query(sql, params);
          },
        };
        return fn(logged);
      }),
  });
  return {
    wrap,
    transactions,
    timeOutNextTransaction: () => {
      timeOutNext = true;
    },
  };
}

type Inventory = { start: string; end: string; roomTypeId?: string; count?: number; closed?: boolean };
const message = (hotelId: string, inventories: Inventory[]) =>
  ota(
    'OTA_HotelInvCountNotifRQ',
    `<Inventories HotelCode="${hotelId}">${inventories
      .map((i) =>
        i.closed
          ? `<Inventory><StatusApplicationControl Start="${i.start}" End="${i.end}" AllInvCode="true"/></Inventory>`
          : `<Inventory><StatusApplicationControl Start="${i.start}" End="${i.end}" InvTypeCode="${i.roomTypeId}"/><InvCounts><InvCount CountType="2" Count="${i.count}"/></InvCounts></Inventory>`,
      )
      .join('')}</Inventories>`,
    '4',
  );

describe('FreeRooms: at most 50,000 room-type nights, applied set-based', () => {
  let app: OperatorApp;
  const log = statementLog();
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_WORKER: 'false' }, [makeHotel(), makeHotel()], {
      wrapDb: log.wrap,
    });
  });
  after(() => app.t.close());
  const night = (n: number) => addDays(localToday(app.t), n);
  async function rooms(hotelId: string, roomTypeId: string, date: string): Promise<number> {
    const res = await app.t.inject({
      method: 'GET',
      url: `${OPERATOR}/hotels/${hotelId}/calendar?from=${date}&to=${date}`,
      headers: auth(app.root),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().roomTypes.find((r: Json) => r.id === roomTypeId).nights[0].rooms;
  }
  /** 45 Inventories of 1,100 nights each: the double's and the suite's windows in turn (49,500 cells). */
  const windows = (count: (i: number) => number): Inventory[] =>
    Array.from({ length: 45 }, (_, i) => {
      const start = night(1 + Math.floor(i / 2) * 1100);
      return {
        roomTypeId: i % 2 === 0 ? 'double' : 'suite',
        start,
        end: addDays(start, 1099),
        count: count(i),
      };
    });

  it('refuses a message over 50,000 room-type nights whole, before anything is written', async () => {
    const hotel = app.hotels[0];
    const before = await rooms(hotel.id, 'double', night(1));
    // 49,500 nights of counts and a closing season of 300 nights × 2 room types: 50,100.
    const over = [...windows(() => 1), { start: night(2), end: night(301), closed: true }];
    const writes = log.transactions.length;
    const res = await alpineBits(
      app.t,
      app.root,
      'OTA_HotelInvCountNotif:FreeRooms',
      message(hotel.id, over),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /<Errors><Error Type="13" Code="450">[^<]*50100 room-type nights[^<]*50000/);
    assert.equal(log.transactions.length, writes, 'no transaction was even begun');
    assert.equal(await rooms(hotel.id, 'double', night(1)), before);
  });

  it('applies 49,500 room-type nights in full, no statement handling more than 2,000 cells', async () => {
    // On PostgreSQL the same prepared statements run 25 times here: with the server's generic plan
    // (from the sixth execution) they outran the statement timeout and the message was refused.
    const hotel = app.hotels[1];
    const inventories = windows((i) => i % 7);
    const writes = log.transactions.length;
    const res = await alpineBits(
      app.t,
      app.root,
      'OTA_HotelInvCountNotif:FreeRooms',
      message(hotel.id, inventories),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /<Success\/>/);
    const freeRooms = log.transactions
      .slice(writes)
      .find((t) => t.some((s) => s.sql.includes('INSERT INTO calendar_overrides')));
    assert.ok(freeRooms, 'the FreeRooms transaction');
    const largest = Math.max(...freeRooms.map((s) => s.cells));
    assert.ok(largest <= 2_000, `a statement handled ${largest} cells`);
    // Each window's first and last night, the double's and the suite's.
    for (const i of [0, 1, 20, 37, 44]) {
      const inventory = inventories[i] as Inventory;
      for (const date of [inventory.start, inventory.end]) {
        assert.equal(await rooms(hotel.id, inventory.roomTypeId as string, date), i % 7, `${i} on ${date}`);
      }
    }
  });

  it('answers a FreeRooms that hits the statement timeout with 503 and Retry-After, nothing written', async (t) => {
    if (app.t.db.kind !== 'postgres') return t.skip('the embedded engine has no statement timeout');
    const hotel = app.hotels[0];
    const before = await rooms(hotel.id, 'double', night(3));
    log.timeOutNextTransaction();
    const res = await alpineBits(
      app.t,
      app.root,
      'OTA_HotelInvCountNotif:FreeRooms',
      message(hotel.id, [{ roomTypeId: 'double', start: night(3), end: night(3), count: before + 1 }]),
    );
    assert.equal(res.statusCode, 503, res.body);
    assert.match(res.body, /^ERROR:.*Retry-After/);
    assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After');
    assert.equal(await rooms(hotel.id, 'double', night(3)), before);
  });
});
