import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { SCOPES } from '../../src/operator-access/scopes.ts';
import { readPdf } from '../folios/pdf-reader.ts';
import {
  assertNoBrokenText,
  DESKTOP,
  dateIn,
  launchChromium,
  openPage,
  type PagesApp,
  screenshot,
  seriousA11yViolations,
  skipWithoutChromium,
  startPagesApp,
} from '../helpers/browser.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { makeHotel } from '../helpers/test-app.ts';

// The folio at the desk (API.md 13): lines, charges and voids, payments, invoices to a company,
// the PDF downloaded and read back, a credit note; in English and Spanish.

const hotel = makeHotel({
  name: 'Hotel del Puerto',
  timezone: 'Europe/Madrid',
  legal: {
    name: 'Hotel Puerto SL',
    taxId: 'B12345678',
    address: 'Calle del Puerto 1, Madrid',
    country: 'ES',
    verifactu: true,
  },
});
const OPERATOR = '/api/v1/operator';

describe('the folio at the front desk', { skip: skipWithoutChromium }, () => {
  let app: PagesApp;
  let browser: Browser;
  let key: string;
  before(async () => {
    [app, browser] = await Promise.all([startPagesApp([hotel]), launchChromium()]);
    const dataKey = app.t.config.dataEncryptionKey as Buffer;
    ({ secret: key } = await app.t.db.transaction((tx) =>
      insertCliKey(tx, operatorKeyHasher(dataKey), {
        name: 'front desk',
        scopes: [...SCOPES],
        hotelIds: null,
      }),
    ));
  });
  after(async () => {
    await browser?.close();
    await app?.t.close();
  });

  async function book(guest: { firstName: string; lastName: string }) {
    const stay = {
      hotelId: hotel.id,
      checkIn: dateIn(hotel.timezone, 0),
      checkOut: dateIn(hotel.timezone, 2),
      adults: 2,
    };
    const quote = await app.t.inject({
      method: 'POST',
      url: '/api/v1/booking/quote',
      payload: { ...stay, roomTypeId: 'double', ratePlanId: 'flex' },
    });
    assert.equal(quote.statusCode, 201, quote.body);
    const reservation = await app.t.inject({
      method: 'POST',
      url: '/api/v1/booking/reservations',
      payload: { quoteId: quote.json().id, guest: { ...guest, email: 'guest@example.com' } },
    });
    assert.equal(reservation.statusCode, 201, reservation.body);
    return reservation.json();
  }

  const folioOf = async (code: string) =>
    (
      await app.t.inject({
        method: 'GET',
        url: `${OPERATOR}/reservations/${code}/folio`,
        headers: { authorization: `Bearer ${key}` },
      })
    ).json();

  async function expectA11y(page: Page) {
    assert.deepEqual(await seriousA11yViolations(page), []);
  }

  it('shows the folio, adds and voids a charge, takes a payment, invoices a company, downloads the PDF, issues a credit note', async () => {
    const reservation = await book({ firstName: 'Lucía', lastName: 'Fernández' });
    const code: string = reservation.id;
    const { page, errors, foreignRequests } = await openPage(browser, app.baseUrl, DESKTOP);
    await page.goto(`${app.baseUrl}/desk`);
    await page.getByLabel('Operator key').fill(key);
    await page.getByRole('button', { name: 'Open the desk' }).click();
    await page.getByRole('heading', { name: /^Today, / }).waitFor();
    await page
      .getByRole('button', { name: /Lucía Fernández/ })
      .first()
      .click();
    await page.getByRole('heading', { name: `Reservation ${code}` }).waitFor();
    const folio = page.locator('#folio');
    await folio.getByRole('heading', { name: 'Folio' }).waitFor();
    // The card's heading is drawn at once and its lines when the folio arrives: wait for them.
    await folio.locator('[data-total="balance"]').waitFor();
    const before = await folioOf(code);
    assert.ok(before.lines.length > 0);
    assert.equal(await folio.locator('tbody tr').count(), before.lines.length);
    await assertNoBrokenText(page, 'the folio before any change');
    const balance = () => folio.locator('[data-total="balance"]').innerText();
    assert.equal(
      await balance(),
      new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(
        before.balance.amount / 100,
      ),
    );
    await expectA11y(page);

    // A charge with a price that is no amount: the API's error is shown, nothing is added.
    const charge = page.locator('#folio-charge');
    await charge.getByLabel('Description').fill('Minibar');
    await charge.getByLabel(/Unit price/).fill('4,505');
    await charge.getByRole('button', { name: 'Add charge' }).click();
    await charge.locator('.field-error, .form-alert').first().waitFor();
    assert.equal((await folioOf(code)).lines.length, before.lines.length);

    // The minibar at the hotel's 10 %, two of them.
    await charge.getByLabel(/Unit price/).fill('4,50');
    await charge.getByLabel('Quantity').fill('2');
    assert.deepEqual(await charge.getByLabel('VAT rate').locator('option').allInnerTexts(), [
      '10%',
      'outside VAT',
    ]);
    await charge.getByRole('button', { name: 'Add charge' }).click();
    await folio.getByText('The charge was added.').waitFor();
    const minibar = folio.locator('tbody tr', { hasText: 'Minibar' });
    assert.match(await minibar.innerText(), /€9\.00/);
    assert.match(await minibar.innerText(), /10%/);

    // A parking charge outside VAT, then voided.
    await page.locator('#folio-charge').getByLabel('Description').fill('Parking');
    await page
      .locator('#folio-charge')
      .getByLabel(/Unit price/)
      .fill('15');
    await page.locator('#folio-charge').getByLabel('VAT rate').selectOption({ label: 'outside VAT' });
    await page.locator('#folio-charge').getByRole('button', { name: 'Add charge' }).click();
    await folio.getByText('The charge was added.').waitFor();
    await folio.locator('tbody tr', { hasText: 'Parking' }).getByRole('button', { name: 'Void' }).click();
    await folio.getByText('The charge was voided.').waitFor();
    assert.match(await folio.locator('tbody tr', { hasText: 'Parking' }).innerText(), /Voided/);

    // A cash payment of 20.00.
    const payment = page.locator('#folio-payment');
    await payment.getByLabel(/Amount/).fill('20');
    await payment.getByLabel('Method').selectOption('cash');
    await payment.getByRole('button', { name: 'Record' }).click();
    await folio.getByText('The payment was recorded.').waitFor();
    await folio.locator('.desk-folio-payments', { hasText: 'Payment · Cash · €20.00' }).waitFor();
    const after = await folioOf(code);
    assert.equal(after.balance.amount, before.balance.amount + 900 - 2000);
    assert.equal(
      await balance(),
      new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(
        after.balance.amount / 100,
      ),
    );

    // An invoice to a company.
    const invoiceForm = page.locator('#folio-invoice');
    await invoiceForm.getByLabel('Invoice a company').check();
    await invoiceForm.getByLabel('Company name').fill('Acme Ibérica SA');
    await invoiceForm.getByLabel('Tax ID').fill('A87654321');
    await invoiceForm.getByLabel('Address').fill('Gran Vía 2, Madrid');
    await invoiceForm.getByLabel(/Country/).fill('ES');
    await invoiceForm.getByRole('button', { name: 'Issue invoice' }).click();
    await folio.getByText(/^Invoice F\d{4}-000001 issued\.$/).waitFor();
    const issued = (await folioOf(code)).invoices;
    assert.equal(issued.length, 1);
    assert.equal(issued[0].recipient, 'Acme Ibérica SA');
    const number: string = issued[0].number;
    assert.match(await minibar.innerText(), new RegExp(`Invoiced \\(${number}\\)`));
    await expectA11y(page);
    await screenshot(page, 'desk-folio-desktop');

    // The PDF, downloaded and read back.
    const item = folio.locator(`[data-number="${number}"]`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `${number}.pdf`);
    const pdf = await readPdf(await readFile((await download.path()) as string));
    const text = pdf.text.join('\n');
    assert.ok(text.includes(number) && text.includes('Acme Ibérica SA') && text.includes('Minibar'), text);

    // A credit note annuls it.
    await item.getByLabel('Reason').fill('Wrong company');
    await item.getByRole('button', { name: 'Issue credit note' }).click();
    await folio.getByText(/^Credit note R\d{4}-000001 issued\.$/).waitFor();
    await folio.locator(`[data-number="${number}"]`).getByText('Annulled').waitFor();
    const corrected = (await folioOf(code)).invoices;
    assert.deepEqual(
      corrected.map((i: { type: string }) => i.type),
      ['invoice', 'credit_note'],
    );

    // In Spanish.
    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('heading', { name: `Reserva ${code}` }).waitFor();
    await page.locator('#folio').getByRole('heading', { name: 'Cuenta' }).waitFor();
    await page.locator('#folio').getByRole('button', { name: 'Descargar PDF' }).first().waitFor();
    await page.locator('#folio-invoice').getByRole('button', { name: 'Emitir factura' }).waitFor();
    await expectA11y(page);

    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
  });
});
