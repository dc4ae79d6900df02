/**
 * Invoices issued at once by two service processes on one PostgreSQL database (API.md 13): 50
 * invoices take 50 consecutive numbers, each once, and one VERI*FACTU chain without a fork or a gap,
 * recomputed here with the agency's rule.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import type { Executor } from '../../src/infra/db/database.ts';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { chainProblems, invoicingHotel } from '../folios/helpers.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { bookOverHttp } from '../helpers/service-process.ts';
import {
  DATABASE_URL,
  type HttpResult,
  http,
  inParallel,
  needsPostgres,
  newEncryptionKey,
  type ServiceProcess,
  sqlClient,
  startService,
  writeCatalog,
} from './support.ts';

const OPERATOR = '/api/v1/operator';
// biome-ignore lint/suspicious/noExplicitAny: records are checked field by field
type Json = any;
const INVOICES = 50;
/** Then credit notes and invoices at once: both series chain to the one head. */
const MIXED = 25;

describe('invoices from several processes on one PostgreSQL database', () => {
  const hotel = invoicingHotel();
  // Room enough for every guest on one night.
  hotel.roomTypes = hotel.roomTypes.map((rt) =>
    rt.id === 'double' ? { ...rt, count: INVOICES + MIXED } : rt,
  );
  const services: ServiceProcess[] = [];
  let sql: pg.Client;
  let key = '';

  before(async () => {
    if (needsPostgres) return;
    const encryptionKey = newEncryptionKey();
    const env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: encryptionKey,
      CATALOG_FILE: await writeCatalog([hotel]),
      DB_POOL_SIZE: '10',
      // 50 issues queue for connections on purpose: a loaded test machine is not an overloaded service.
      LOAD_SHED_MAX_WAIT_MS: '0',
    };
    services.push(...(await Promise.all([startService(env), startService(env)])));
    sql = await sqlClient();
    ({ secret: key } = await insertCliKey(
      sql as unknown as Executor,
      operatorKeyHasher(Buffer.from(encryptionKey, 'base64')),
      { name: 'accountant', scopes: ['folios:read', 'folios:write'], hotelIds: null },
    ));
  });
  after(async () => {
    if (needsPostgres) return;
    await sql?.end();
    const exits = await Promise.all(services.map((s) => s.stop()));
    for (const exit of exits) assert.deepEqual(exit, { code: 0, signal: null });
  });

  test('50 invoices at once: 50 consecutive numbers and one unbroken chain, credit notes too', {
    skip: needsPostgres,
  }, async () => {
    const codes = await inParallel(
      Array.from({ length: INVOICES + MIXED }, (_, i) => i),
      5,
      async (i) =>
        (
          await bookOverHttp(services[i % 2] as ServiceProcess, {
            hotelId: hotel.id,
            email: `guest${i}@example.com`,
            fromToday: 20,
            nights: 1,
          })
        ).id,
    );
    const auth = { authorization: `Bearer ${key}` };
    // All at once, alternating between the processes.
    const issued = await Promise.all(
      codes
        .slice(0, INVOICES)
        .map((code, i) =>
          http(
            (services[i % 2] as ServiceProcess).baseUrl,
            'POST',
            `${OPERATOR}/reservations/${code}/invoices`,
            {},
            auth,
          ),
        ),
    );
    for (const r of issued) assert.equal(r.status, 201, JSON.stringify(r.body));
    const year = issued[0]?.body.number.slice(1, 5);
    const numbers = issued.map((r) => r.body.number as string).sort();
    assert.deepEqual(
      numbers,
      Array.from({ length: INVOICES }, (_, i) => `F${year}-${String(i + 1).padStart(6, '0')}`),
    );

    // Credit notes of the first invoices and invoices of the other reservations, all at once.
    const mixed = await Promise.all([
      ...issued
        .slice(0, MIXED)
        .map((r, i) =>
          http(
            (services[i % 2] as ServiceProcess).baseUrl,
            'POST',
            `${OPERATOR}/invoices/${r.body.id}/credit-note`,
            { reason: 'test' },
            auth,
          ),
        ),
      ...codes
        .slice(INVOICES)
        .map((code, i) =>
          http(
            (services[(i + 1) % 2] as ServiceProcess).baseUrl,
            'POST',
            `${OPERATOR}/reservations/${code}/invoices`,
            {},
            auth,
          ),
        ),
    ]);
    for (const r of mixed) assert.equal(r.status, 201, JSON.stringify(r.body));
    const sequence = (series: string, from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `${series}${year}-${String(from + i).padStart(6, '0')}`);
    assert.deepEqual(mixed.map((r) => r.body.number as string).sort(), [
      ...sequence('F', INVOICES + 1, MIXED),
      ...sequence('R', 1, MIXED),
    ]);

    const chain: Json[] = [];
    let after = '';
    do {
      const page: HttpResult = await http(
        (services[chain.length % 2] as ServiceProcess).baseUrl,
        'GET',
        `${OPERATOR}/hotels/${hotel.id}/verifactu-records?limit=20${after ? `&after=${after}` : ''}`,
        undefined,
        auth,
      );
      assert.equal(page.status, 200, JSON.stringify(page.body));
      chain.push(...page.body.data);
      after = page.body.nextCursor ?? '';
    } while (after);
    assert.equal(chain.length, INVOICES + 2 * MIXED);
    assert.deepEqual(chainProblems(chain), []);
    // The chain follows the numbers of each series: issue order is one order.
    assert.deepEqual(
      chain.slice(0, INVOICES).map((r) => r.number),
      numbers,
    );
    for (const series of ['F', 'R']) {
      const ofSeries = chain.map((r) => r.number as string).filter((n) => n.startsWith(series));
      assert.deepEqual(ofSeries, [...ofSeries].sort());
    }
    const byId = new Map([...issued, ...mixed].map((r) => [r.body.id, r.body]));
    for (const record of chain) assert.equal(byId.get(record.invoiceId)?.verifactu.hash, record.hash);
  });
});
