import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem, bearer, type Json, modify } from '../booking/helpers.ts';
import { bookStay } from '../booking/reservation-helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { makeKey, startOperatorApp } from '../operator-access/helpers.ts';
import { aeatHash, call, chainProblems, invoicingHotel, LEGAL } from './helpers.ts';

const EUR = (amount: number) => ({ amount, currency: 'EUR' });

describe('folios and invoices (API.md 13)', () => {
  it('shows the reservation’s lines with VAT, desk charges, voids and payments, and the balance', async (t) => {
    const app = await startOperatorApp({}, [invoicingHotel(), makeHotel()]);
    t.after(() => app.t.close());
    const { t: test, root, hotels } = app;
    const { code, reservation } = await bookStay(test, hotels[0].id, { nights: 2 });
    const folio = await call(test, root, 'GET', `/reservations/${code}/folio`);
    assert.equal(folio.statusCode, 200, folio.body);
    const body = folio.json();
    assert.equal(body.reservationId, code);
    assert.deepEqual(body.total, reservation.total);
    assert.deepEqual(body.balance, reservation.total);
    assert.deepEqual(body.paid, EUR(0));
    for (const line of body.lines) {
      assert.equal(line.vatRate, line.type === 'tax' ? null : 10, JSON.stringify(line));
      assert.equal(line.amount.amount, line.unitAmount.amount * line.quantity);
      assert.equal(line.invoiceId, null);
    }
    assert.deepEqual(
      body.lines.map((l: Json) => l.type).sort(),
      reservation.lines.map((l: Json) => l.type).sort(),
    );

    // Bad input changes nothing.
    const charges = `/reservations/${code}/folio/charges`;
    assertProblem(
      await call(test, root, 'POST', charges, { description: 'Minibar', unitAmount: 800, vatRate: 21 }),
      400,
      'validation_error',
    );
    assertProblem(
      await call(test, root, 'POST', charges, { description: 'Minibar', unitAmount: 8.5 }),
      400,
      'validation_error',
    );
    assertProblem(
      await call(test, root, 'POST', charges, { description: '', unitAmount: 800 }),
      400,
      'validation_error',
    );
    assert.deepEqual((await call(test, root, 'GET', `/reservations/${code}/folio`)).json().lines, body.lines);

    const minibar = await call(test, root, 'POST', charges, {
      description: 'Minibar',
      unitAmount: 450,
      quantity: 2,
    });
    assert.equal(minibar.statusCode, 201, minibar.body);
    assert.equal(minibar.json().type, 'charge');
    assert.equal(minibar.json().vatRate, 10);
    assert.deepEqual(minibar.json().amount, EUR(900));
    const tourist = await call(test, root, 'POST', charges, {
      description: 'Late check-out',
      unitAmount: 3000,
      vatRate: null,
    });
    assert.equal(tourist.statusCode, 201, tourist.body);
    const voided = await call(test, root, 'POST', `${charges}/${tourist.json().id}/void`);
    assert.equal(voided.statusCode, 200, voided.body);
    assert.equal(voided.json().voided, true);
    assertProblem(await call(test, root, 'POST', `${charges}/fl_nope/void`), 404, 'not_found');

    const paid = await call(test, root, 'POST', `/reservations/${code}/folio/payments`, {
      amount: 5000,
      method: 'cash',
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const refund = await call(test, root, 'POST', `/reservations/${code}/folio/payments`, {
      amount: 1000,
      method: 'card_terminal',
      kind: 'refund',
      reference: 'slip 42',
    });
    assert.equal(refund.statusCode, 201, refund.body);
    assertProblem(
      await call(test, root, 'POST', `/reservations/${code}/folio/payments`, { amount: 0, method: 'cash' }),
      400,
      'validation_error',
    );
    assertProblem(
      await call(test, root, 'POST', `/reservations/${code}/folio/payments`, {
        amount: 10,
        method: 'cheque',
      }),
      400,
      'validation_error',
    );

    const after = (await call(test, root, 'GET', `/reservations/${code}/folio`)).json();
    assert.equal(after.lines.length, body.lines.length + 2);
    assert.deepEqual(after.total, EUR(reservation.total.amount + 900));
    assert.deepEqual(after.paid, EUR(4000));
    assert.deepEqual(after.balance, EUR(reservation.total.amount + 900 - 4000));
    assert.deepEqual(
      after.payments.map((p: Json) => [p.kind, p.method]),
      [
        ['payment', 'cash'],
        ['refund', 'card_terminal'],
      ],
    );

    // Scopes and hotels: a key without folios:* or outside the hotel is refused.
    const reader = await makeKey(app, { scopes: ['reservations:read'] });
    assertProblem(await call(test, reader.key, 'GET', `/reservations/${code}/folio`), 403, 'forbidden');
    const other = await makeKey(app, { scopes: ['folios:read', 'folios:write'], hotelIds: [hotels[1].id] });
    assertProblem(await call(test, other.key, 'GET', `/reservations/${code}/folio`), 404, 'not_found');
  });

  it('issues invoices numbered without gaps, chained under VERI*FACTU, corrected only by credit notes', async (t) => {
    const app = await startOperatorApp({}, [invoicingHotel(), makeHotel()]);
    t.after(() => app.t.close());
    const { t: test, root, hotels } = app;
    const { code, token, reservation, checkOut } = await bookStay(test, hotels[0].id, { nights: 2 });
    const year = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric' }).format(
      test.clock.now(),
    );

    const first = await call(test, root, 'POST', `/reservations/${code}/invoices`, {});
    assert.equal(first.statusCode, 201, first.body);
    const inv = first.json();
    assert.equal(inv.number, `F${year}-000001`);
    assert.equal(inv.type, 'invoice');
    assert.equal(inv.reservationId, code);
    assert.deepEqual(inv.issuer, LEGAL);
    assert.deepEqual(inv.recipient, { name: 'Ana Silva' });
    assert.deepEqual(inv.total, reservation.total);
    const vat = inv.taxes.reduce((s: number, x: Json) => s + x.amount.amount, 0);
    assert.deepEqual(
      inv.taxes.map((x: Json) => x.vatRate),
      [10],
    );
    assert.equal(vat, reservation.includedTaxes[0].amount.amount);
    assert.equal(inv.verifactu.previousHash, '');
    assert.match(inv.verifactu.generatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    const dmy = inv.issueDate.split('-').reverse().join('-');
    assert.equal(
      inv.verifactu.hash,
      aeatHash({
        IDEmisorFactura: LEGAL.taxId,
        NumSerieFactura: inv.number,
        FechaExpedicionFactura: dmy,
        TipoFactura: 'F2',
        CuotaTotal: (vat / 100).toFixed(2),
        ImporteTotal: (inv.total.amount / 100).toFixed(2),
        Huella: '',
        FechaHoraHusoGenRegistro: inv.verifactu.generatedAt,
      }),
    );
    assert.equal(
      inv.verifactu.qrUrl,
      `https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=${LEGAL.taxId}&numserie=F${year}-000001&fecha=${dmy}&importe=${(inv.total.amount / 100).toFixed(2)}`,
    );
    assert.deepEqual((await call(test, root, 'GET', `/invoices/${inv.id}`)).json(), inv);

    // Everything is invoiced now.
    assertProblem(
      await call(test, root, 'POST', `/reservations/${code}/invoices`, {}),
      409,
      'nothing_to_invoice',
    );
    const folio = (await call(test, root, 'GET', `/reservations/${code}/folio`)).json();
    assert.ok(folio.lines.every((l: Json) => l.invoiceId === inv.id));

    // A charge, invoiced to a company; then it cannot be voided.
    const charge = await call(test, root, 'POST', `/reservations/${code}/folio/charges`, {
      description: 'Minibar',
      unitAmount: 1210,
      vatRate: 10,
    });
    const company = { name: 'Acme SA', taxId: 'A87654321', address: 'Gran Via 2, Madrid', country: 'ES' };
    const second = await call(test, root, 'POST', `/reservations/${code}/invoices`, { recipient: company });
    assert.equal(second.statusCode, 201, second.body);
    assert.equal(second.json().number, `F${year}-000002`);
    assert.deepEqual(second.json().recipient, company);
    assert.deepEqual(second.json().taxes, [{ vatRate: 10, base: EUR(1100), amount: EUR(110) }]);
    assert.equal(second.json().verifactu.previousHash, inv.verifactu.hash);
    assertProblem(
      await call(test, root, 'POST', `/reservations/${code}/folio/charges/${charge.json().id}/void`),
      409,
      'already_invoiced',
    );

    // A longer stay: the invoiced lines stay as they were; only what it adds is open.
    const longer = await modify(test, code, token, { checkOut: addDay(checkOut) });
    assert.equal(longer.statusCode, 200, longer.body);
    const open = (await call(test, root, 'GET', `/reservations/${code}/folio`))
      .json()
      .lines.filter((l: Json) => l.invoiceId === null);
    assert.ok(
      open.some((l: Json) => l.type === 'room' && l.date === checkOut),
      JSON.stringify(open),
    );
    assert.ok(
      open.every((l: Json) => (l.type === 'room' ? l.date === checkOut : true)),
      JSON.stringify(open),
    );

    // A credit note annuls the first invoice; its lines can be invoiced again; not twice.
    const credit = await call(test, root, 'POST', `/invoices/${inv.id}/credit-note`, {
      reason: 'wrong recipient',
    });
    assert.equal(credit.statusCode, 201, credit.body);
    const cn = credit.json();
    assert.equal(cn.type, 'credit_note');
    assert.equal(cn.number, `R${year}-000001`);
    assert.equal(cn.corrects, inv.id);
    assert.deepEqual(cn.total, EUR(-inv.total.amount));
    assert.deepEqual(
      cn.lines.map((l: Json) => l.amount.amount),
      inv.lines.map((l: Json) => -l.amount.amount),
    );
    assert.equal(cn.verifactu.previousHash, second.json().verifactu.hash);
    assertProblem(
      await call(test, root, 'POST', `/invoices/${inv.id}/credit-note`, { reason: 'again' }),
      409,
      'already_corrected',
    );
    const third = await call(test, root, 'POST', `/reservations/${code}/invoices`, {});
    assert.equal(third.statusCode, 201, third.body);
    assert.equal(third.json().number, `F${year}-000003`);
    assert.ok(third.json().lines.length > inv.lines.length - 1);
    assert.deepEqual((await call(test, root, 'GET', `/invoices/${inv.id}`)).json(), inv);

    // The chain, read as anyone would, recomputes.
    const records = await call(test, root, 'GET', `/hotels/${hotels[0].id}/verifactu-records?limit=2`);
    assert.equal(records.statusCode, 200, records.body);
    const page2 = await call(
      test,
      root,
      'GET',
      `/hotels/${hotels[0].id}/verifactu-records?after=${records.json().nextCursor}`,
    );
    const chain = [...records.json().data, ...page2.json().data];
    assert.deepEqual(
      chain.map((r: Json) => r.number),
      [`F${year}-000001`, `F${year}-000002`, `R${year}-000001`, `F${year}-000003`],
    );
    assert.deepEqual(chainProblems(chain), []);
    assert.equal(chain[1].fields.TipoFactura, 'F1');
    assert.equal(chain[2].fields.TipoFactura, 'R1');
    assert.equal(chain[2].fields.ImporteTotal, `-${(inv.total.amount / 100).toFixed(2)}`);
    assert.equal(page2.json().nextCursor, null);

    // The accountant's list and CSV.
    const list = await call(test, root, 'GET', `/hotels/${hotels[0].id}/invoices`);
    assert.deepEqual(
      list.json().data.map((i: Json) => i.number),
      chain.map((r: Json) => r.number),
    );
    const csv = await call(test, root, 'GET', `/hotels/${hotels[0].id}/invoices`, undefined, {
      accept: 'text/csv',
    });
    assert.equal(csv.statusCode, 200, csv.body);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const rows = csv.body.trimEnd().split('\r\n');
    assert.match(rows[0] as string, /^"number","type","issueDate"/);
    assert.ok(
      rows.some(
        (r) =>
          r.startsWith(`"R${year}-000001","credit_note"`) &&
          r.includes(`-${(inv.total.amount / 100).toFixed(2)}`),
      ),
      csv.body,
    );
    assert.ok(
      rows.some(
        (r) =>
          r.startsWith(`"F${year}-000002"`) &&
          r.includes('"A87654321"') &&
          r.includes(',10,11.00,1.10,12.10,'),
      ),
      csv.body,
    );
  });

  it('answers a retried issue with its Idempotency-Key once, taking one number', async (t) => {
    const app = await startOperatorApp({}, [invoicingHotel(), makeHotel()]);
    t.after(() => app.t.close());
    const { t: test, root, hotels } = app;
    const { code } = await bookStay(test, hotels[0].id, {});
    const keyed = { 'idempotency-key': 'issue-once-1' };
    const once = await call(test, root, 'POST', `/reservations/${code}/invoices`, {}, keyed);
    const again = await call(test, root, 'POST', `/reservations/${code}/invoices`, {}, keyed);
    assert.equal(once.statusCode, 201, once.body);
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.body, once.body);
    await call(test, root, 'POST', `/reservations/${code}/folio/charges`, {
      description: 'Parking',
      unitAmount: 500,
    });
    const next = await call(test, root, 'POST', `/reservations/${code}/invoices`, {});
    assert.equal(next.statusCode, 201, next.body);
    assert.equal(next.json().number, once.json().number.replace(/000001$/, '000002'));
  });

  it('refuses to invoice for a hotel without legal details, and leaves a cancellation its fee', async (t) => {
    const app = await startOperatorApp({}, [makeHotel(), invoicingHotel()]);
    t.after(() => app.t.close());
    const { t: test, root, hotels } = app;
    const plain = await bookStay(test, hotels[0].id, {});
    assertProblem(
      await call(test, root, 'POST', `/reservations/${plain.code}/invoices`, {}),
      409,
      'invoicing_not_configured',
    );
    assert.equal(
      (await call(test, root, 'GET', `/reservations/${plain.code}/folio`))
        .json()
        .lines.every((l: Json) => l.invoiceId === null),
      true,
    );

    // Non-refundable, cancelled: the fee is the folio.
    const nonref = await bookStay(test, hotels[1].id, { ratePlanId: 'nonref' });
    const cancelled = await test.inject({
      method: 'POST',
      url: `/api/v1/booking/reservations/${nonref.code}/cancel`,
      headers: bearer(nonref.token),
      payload: {},
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const folio = (await call(test, root, 'GET', `/reservations/${nonref.code}/folio`)).json();
    assert.deepEqual(
      folio.lines.map((l: Json) => [l.type, l.code, l.amount]),
      [['fee', 'cancellation', nonref.reservation.total]],
    );
    assert.deepEqual(folio.paid, nonref.reservation.total);
    assert.deepEqual(folio.balance, EUR(0));
    assert.equal(folio.payments[0].method, 'card');
  });
});

function addDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
