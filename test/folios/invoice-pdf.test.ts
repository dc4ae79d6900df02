import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem, type Json } from '../booking/helpers.ts';
import { bookStay } from '../booking/reservation-helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { makeKey, startOperatorApp } from '../operator-access/helpers.ts';
import { call, invoicingHotel, LEGAL } from './helpers.ts';
import { readPdf } from './pdf-reader.ts';

const LOCALES = { en: 'en-GB', es: 'es-ES', pt: 'pt-PT' } as const;
type Language = keyof typeof LOCALES;
const TITLE = { en: 'Invoice', es: 'Factura', pt: 'Fatura' };
const CREDIT = { en: 'Credit note', es: 'Factura rectificativa', pt: 'Nota de crédito' };
// The charge of 1234.50 outside VAT and a 10 % rate, as each language writes them (written out here,
// not computed, so a wrong locale shows).
const CHARGE = { en: '€1,234.50', es: '1234,50 €', pt: '1234,50 €' };
const RATE = { en: '10%', es: '10 %', pt: '10%' };
const OUTSIDE = { en: 'not subject', es: 'no sujeto', pt: 'não sujeito' };

/** Spaces as a reader sees them: no-break spaces are spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const money = (language: Language, minor: number) =>
  plain(new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency: 'EUR' }).format(minor / 100));
const longDate = (language: Language, date: string) =>
  new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

async function pdfOf(test: Parameters<typeof call>[0], key: string, id: string, language?: Language) {
  const response = await test.inject({
    method: 'GET',
    url: `/api/v1/operator/invoices/${id}/pdf${language ? `?language=${language}` : ''}`,
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.headers['content-type'], 'application/pdf');
  assert.match(
    String(response.headers['content-disposition']),
    /^inline; filename="[A-Z]+\d{4}-\d{6}\.pdf"$/,
  );
  assert.equal(response.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
  return readPdf(response.rawPayload);
}

describe('invoice PDF (API.md 13), read back: text extracted and QR code decoded', () => {
  it('prints an invoice in each language with its VAT breakdown, total and the VERI*FACTU QR code', async (t) => {
    const app = await startOperatorApp({}, [invoicingHotel(), makeHotel()]);
    t.after(() => app.t.close());
    const { t: test, root, hotels } = app;
    const { code } = await bookStay(test, hotels[0].id, { nights: 2 });
    const charge = await call(test, root, 'POST', `/reservations/${code}/folio/charges`, {
      description: 'Parking garaje (3 días)',
      unitAmount: 123450,
      vatRate: null,
    });
    assert.equal(charge.statusCode, 201, charge.body);
    const company = {
      name: 'Acme Ibérica SA',
      taxId: 'A87654321',
      address: 'Gran Vía 2, Madrid',
      country: 'ES',
    };
    const issued = await call(test, root, 'POST', `/reservations/${code}/invoices`, { recipient: company });
    assert.equal(issued.statusCode, 201, issued.body);
    const inv: Json = issued.json();
    assert.equal(inv.taxes.length, 1);
    const [vat] = inv.taxes;

    for (const language of ['en', 'es', 'pt'] as const) {
      const pdf = await pdfOf(test, root, inv.id, language);
      assert.equal(pdf.pages, 1);
      assert.ok(Math.abs(pdf.size.width - 595.28) < 1 && Math.abs(pdf.size.height - 841.89) < 1, 'A4');
      const text = plain(pdf.text.join('\n'));
      const lines = text.split('\n');
      const has = (needle: string) =>
        assert.ok(text.includes(plain(needle)), `${language}: no “${needle}” in\n${text}`);
      has(TITLE[language]);
      has(inv.number);
      has(longDate(language, inv.issueDate));
      has(code);
      // Issuer and recipient, accents intact.
      for (const value of [
        LEGAL.name,
        LEGAL.taxId,
        LEGAL.address,
        company.name,
        company.taxId,
        company.address,
      ])
        has(value);
      // The lines: the charge outside VAT, in the language's money.
      const chargeLine = lines.find((l) => l.includes('Parking garaje (3 días)'));
      assert.ok(chargeLine, text);
      assert.ok(chargeLine.includes(plain(CHARGE[language])), `${language}: ${chargeLine}`);
      assert.ok(chargeLine.includes(OUTSIDE[language]), `${language}: ${chargeLine}`);
      // The VAT breakdown: the rate, its base and its VAT on one line.
      const vatLine = lines.find(
        (l) => l.startsWith(RATE[language]) && l.includes(money(language, vat.base.amount)),
      );
      assert.ok(vatLine, `${language}: no VAT line in\n${text}`);
      assert.ok(vatLine.includes(money(language, vat.amount.amount)), vatLine);
      // The total.
      const totalLine = lines.find((l) => l.startsWith('Total'));
      assert.ok(totalLine?.endsWith(money(language, inv.total.amount)), `${language}: ${totalLine}`);
      // VERI*FACTU: the words and the QR code of qrUrl.
      has('VERI*FACTU');
      has('Factura verificable en la sede electrónica de la AEAT');
      assert.equal(await pdf.qr(1), inv.verifactu.qrUrl);
    }

    // By default the guest's language (English here).
    const byDefault = await pdfOf(test, root, inv.id);
    assert.ok(byDefault.text[0]?.includes('Invoice'));

    // The credit note: its own title, the invoice it corrects, negative amounts, its own QR code.
    const credit = await call(test, root, 'POST', `/invoices/${inv.id}/credit-note`, {
      reason: 'Datos erróneos',
    });
    assert.equal(credit.statusCode, 201, credit.body);
    const cn: Json = credit.json();
    const cnPdf = await pdfOf(test, root, cn.id, 'es');
    const cnText = plain(cnPdf.text.join('\n'));
    assert.ok(cnText.includes(CREDIT.es), cnText);
    assert.ok(
      cnText.includes(`Rectifica la factura ${inv.number} del ${longDate('es', inv.issueDate)}`),
      cnText,
    );
    assert.ok(cnText.includes('Motivo: Datos erróneos'), cnText);
    assert.ok(cnText.includes(money('es', -inv.total.amount)), cnText);
    assert.equal(await cnPdf.qr(1), cn.verifactu.qrUrl);
    assert.notEqual(cn.verifactu.qrUrl, inv.verifactu.qrUrl);

    // Bad input and other hotels' invoices.
    assertProblem(
      await test.inject({
        method: 'GET',
        url: `/api/v1/operator/invoices/${inv.id}/pdf?language=fr`,
        headers: { authorization: `Bearer ${root}` },
      }),
      400,
      'validation_error',
    );
    const other = await makeKey(app, { scopes: ['folios:read'], hotelIds: [hotels[1].id] });
    assertProblem(await call(test, other.key, 'GET', `/invoices/${inv.id}/pdf`), 404, 'not_found');
    assertProblem(await call(test, root, 'GET', '/invoices/inv_nope/pdf'), 404, 'not_found');
  });

  it('has no QR code nor VERI*FACTU words for a hotel outside VERI*FACTU', async (t) => {
    const app = await startOperatorApp({}, [
      invoicingHotel({ legal: { ...LEGAL, country: 'PT' } }),
      makeHotel(),
    ]);
    t.after(() => app.t.close());
    const { t: test, root, hotels } = app;
    const { code } = await bookStay(test, hotels[0].id, { nights: 1 });
    const issued = await call(test, root, 'POST', `/reservations/${code}/invoices`, {});
    assert.equal(issued.statusCode, 201, issued.body);
    assert.equal(issued.json().verifactu, undefined);
    const pdf = await pdfOf(test, root, issued.json().id, 'pt');
    const text = plain(pdf.text.join('\n'));
    assert.ok(text.includes('Fatura') && text.includes(issued.json().number), text);
    assert.ok(!text.includes('VERI*FACTU'), text);
    assert.equal(await pdf.qr(1), null);
  });
});
