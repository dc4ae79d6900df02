import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Database, Executor } from '../../src/infra/db/database.ts';
import { bookStay } from '../booking/reservation-helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { startOperatorApp } from '../operator-access/helpers.ts';
import { call, invoicingHotel } from './helpers.ts';

/**
 * An issue that waits for its series' lock reads the clock only once it holds it (issue 35): the
 * issue date, and so the year in the number, is that of the moment it can take its number. Here the
 * wait spans the new year in Madrid: the clock moves on while the lock is taken, and the invoice is
 * the new year's first, dated the new year. (Read before the lock, it would be dated 31 December and
 * numbered in the old year after invoices of the new one had been committed.)
 */
it('derives the issue date after taking the series lock, so numbers and dates agree across the new year', async (t) => {
  let onSeriesLock: (() => void) | null = null;
  const watch = (tx: Executor): Executor =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        if (prop === 'query') {
          return async (sql: string, params?: readonly unknown[]) => {
            const result = await target.query(sql, params);
            if (sql.includes('INSERT INTO invoice_series')) onSeriesLock?.();
            return result;
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const wrapDb = (db: Database): Database =>
    new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === 'transaction') {
          return (fn: (tx: Executor) => Promise<unknown>, ...rest: unknown[]) =>
            (target.transaction as (...a: unknown[]) => Promise<unknown>)(
              (tx: Executor) => fn(watch(tx)),
              ...rest,
            );
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const app = await startOperatorApp({}, [invoicingHotel(), makeHotel()], { wrapDb });
  t.after(() => app.t.close());
  const { t: test, root, hotels } = app;
  const { code } = await bookStay(test, hotels[0].id, { nights: 1 });

  // Two seconds before midnight of 31 December in Madrid (UTC+1 in winter), a few years ahead so
  // no other invoice of this series and year exists; the lock's wait takes the clock past midnight.
  const eve = Date.parse('2031-12-31T22:59:58Z');
  test.clock.advance(eve - test.clock.now().getTime());
  onSeriesLock = () => {
    onSeriesLock = null;
    test.clock.advance(5_000);
  };
  const issued = await call(test, root, 'POST', `/reservations/${code}/invoices`, {});
  assert.equal(issued.statusCode, 201, issued.body);
  const invoice = issued.json();
  assert.equal(invoice.issueDate, '2032-01-01');
  assert.equal(invoice.number, 'F2032-000001');
  assert.match(invoice.verifactu.generatedAt, /^2032-01-01T00:00:0\d\+01:00$/);
  assert.equal(invoice.verifactu.qrUrl.includes('fecha=01-01-2032'), true);
});
