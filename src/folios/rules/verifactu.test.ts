import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  aeatAmount,
  aeatDate,
  chainText,
  tipoFactura,
  verifactuFields,
  verifactuHash,
  verifactuQrUrl,
  zonedTimestamp,
} from './verifactu.ts';

describe('VERI*FACTU record', () => {
  it("reproduces the agency's published example byte for byte", () => {
    const fields = {
      IDEmisorFactura: '89890001K',
      NumSerieFactura: '12345678/G33',
      FechaExpedicionFactura: '01-01-2024',
      TipoFactura: 'F1' as const,
      CuotaTotal: '12.35',
      ImporteTotal: '123.45',
      Huella: '',
      FechaHoraHusoGenRegistro: '2024-01-01T19:20:30+01:00',
    };
    assert.equal(
      chainText(fields),
      'IDEmisorFactura=89890001K&NumSerieFactura=12345678/G33&FechaExpedicionFactura=01-01-2024&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=&FechaHoraHusoGenRegistro=2024-01-01T19:20:30+01:00',
    );
    assert.equal(verifactuHash(fields), '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
  });

  it('builds the same record from minor units, a date and an instant in the hotel zone', () => {
    const fields = verifactuFields({
      issuerTaxId: '89890001K',
      number: '12345678/G33',
      issueDate: '2024-01-01',
      type: 'invoice',
      recipientTaxId: 'B12345678',
      vatTotal: 1235,
      total: 12345,
      currencyDigits: 2,
      previousHash: '',
      generatedAt: new Date('2024-01-01T18:20:30Z'),
      timezone: 'Europe/Madrid',
    });
    assert.equal(verifactuHash(fields), '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
  });

  it('formats amounts with a dot and two decimals, negatives included', () => {
    assert.equal(aeatAmount(1235), '12.35');
    assert.equal(aeatAmount(-12340), '-123.40');
    assert.equal(aeatAmount(0), '0.00');
    assert.equal(aeatAmount(5), '0.05');
    assert.equal(aeatAmount(-5), '-0.05');
    assert.equal(aeatAmount(1234, 0), '1234.00');
    assert.throws(() => aeatAmount(1.5));
  });

  it('names the invoice type', () => {
    assert.equal(tipoFactura('invoice', 'B12345678'), 'F1');
    assert.equal(tipoFactura('invoice', null), 'F2');
    assert.equal(tipoFactura('invoice', ''), 'F2');
    assert.equal(tipoFactura('credit_note', 'B12345678'), 'R1');
    assert.equal(tipoFactura('credit_note', undefined), 'R1');
  });

  it('writes the hotel-local time with its offset, summer and winter, never the machine zone', () => {
    assert.equal(
      zonedTimestamp(new Date('2027-01-15T09:05:07.900Z'), 'Europe/Madrid'),
      '2027-01-15T10:05:07+01:00',
    );
    assert.equal(
      zonedTimestamp(new Date('2027-07-15T09:05:07Z'), 'Europe/Madrid'),
      '2027-07-15T11:05:07+02:00',
    );
    assert.equal(
      zonedTimestamp(new Date('2027-07-15T09:05:07Z'), 'Atlantic/Canary'),
      '2027-07-15T10:05:07+01:00',
    );
    assert.equal(
      zonedTimestamp(new Date('2027-01-15T09:05:07Z'), 'America/Sao_Paulo'),
      '2027-01-15T06:05:07-03:00',
    );
    assert.equal(
      zonedTimestamp(new Date('2027-01-15T23:30:00Z'), 'Asia/Kolkata'),
      '2027-01-16T05:00:00+05:30',
    );
    assert.equal(aeatDate('2027-03-09'), '09-03-2027');
  });

  it('builds the QR address URL-encoded', () => {
    assert.equal(
      verifactuQrUrl('https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR', {
        taxId: '89890001K',
        number: '12345678&G33',
        issueDate: '2024-01-01',
        total: 24199,
        currencyDigits: 2,
      }),
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.99',
    );
  });
});
