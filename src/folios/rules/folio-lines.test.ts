import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FolioLine, folioLines, reservationLines } from './folio-lines.ts';

const money = (amount: number) => ({ amount });
const stayLines = (nights: string[], breakfasts: number) => [
  ...nights.map((date) => ({
    type: 'room' as const,
    code: 'double',
    name: 'Double',
    date,
    quantity: 1,
    unitAmount: money(12000),
    amount: money(12000),
  })),
  {
    type: 'service' as const,
    code: 'breakfast',
    name: 'Breakfast',
    quantity: breakfasts,
    unitAmount: money(1500),
    amount: money(1500 * breakfasts),
  },
  {
    type: 'tax' as const,
    code: 'city_tax',
    name: 'City tax',
    quantity: 4,
    unitAmount: money(200),
    amount: money(800),
  },
];
const derive = (nights: string[], breakfasts: number) =>
  reservationLines(
    { status: 'confirmed', checkIn: '2027-03-01', lines: stayLines(nights, breakfasts), fee: null },
    10,
    (k) => k,
  );

describe('folio lines', () => {
  it('takes the reservation lines with the hotel VAT, taxes outside it', () => {
    const lines = folioLines([], derive(['2027-03-01', '2027-03-02'], 4));
    assert.deepEqual(
      lines.map((l) => [l.sourceKey, l.quantity, l.amount, l.vatRate]),
      [
        ['room:double:2027-03-01:0', 1, 12000, 10],
        ['service:breakfast:2027-03-01:0', 4, 6000, 10],
        ['tax:city_tax:2027-03-01:0', 4, 800, null],
        ['room:double:2027-03-02:0', 1, 12000, 10],
      ],
    );
  });

  it('keeps invoiced lines and shows only what a longer stay adds, at its price now', () => {
    const invoiced: FolioLine[] = folioLines([], derive(['2027-03-01'], 2)).map((l) => ({
      ...l,
      invoiceId: 'inv_1',
    }));
    const lines = folioLines(invoiced, derive(['2027-03-01', '2027-03-02'], 4));
    const open = lines.filter((l) => l.invoiceId === null);
    assert.deepEqual(
      open.map((l) => [l.sourceKey, l.quantity, l.amount]),
      [
        ['service:breakfast:2027-03-01:0/1', 2, 3000],
        ['room:double:2027-03-02:0', 1, 12000],
      ],
    );
    // A shorter stay takes nothing back from an invoice.
    assert.equal(folioLines(invoiced, derive([], 0)).filter((l) => l.invoiceId === null).length, 0);
  });

  it('leaves a cancellation its fee', () => {
    const lines = reservationLines(
      {
        status: 'cancelled',
        checkIn: '2027-03-01',
        lines: stayLines(['2027-03-01'], 2),
        fee: { amount: 12000, date: '2027-02-20', noShow: false },
      },
      10,
      (k) => k,
    );
    assert.deepEqual(
      lines.map((l) => [l.type, l.code, l.amount, l.vatRate, l.date]),
      [['fee', 'cancellation', 12000, 10, '2027-02-20']],
    );
  });
});
