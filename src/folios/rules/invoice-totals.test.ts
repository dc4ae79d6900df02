import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoiceNumber, vatBreakdown } from './invoice-totals.ts';

describe('invoice sums', () => {
  it('works out the VAT included per rate as the quote does (API.md 6.2)', () => {
    // The quote of API.md 2.2: rooms and services of 54000 at 10% include 4909.
    assert.deepEqual(
      vatBreakdown([
        { amount: 40500, vatRate: 10 },
        { amount: 13500, vatRate: 10 },
        { amount: 1200, vatRate: null },
        { amount: 1000, vatRate: 21 },
      ]),
      [
        { vatRate: 10, base: 49091, amount: 4909 },
        { vatRate: 21, base: 826, amount: 174 },
      ],
    );
  });

  it('rounds half away from zero and keeps base + amount = the sum, negatives too', () => {
    // 105 × 5 / 105 = 5 exactly; 11 × 10 / 110 = 1; 5.5 × 10/110 = 0.5 → 1.
    assert.deepEqual(vatBreakdown([{ amount: 105, vatRate: 5 }]), [{ vatRate: 5, base: 100, amount: 5 }]);
    assert.deepEqual(vatBreakdown([{ amount: 55, vatRate: 10 }]), [{ vatRate: 10, base: 50, amount: 5 }]);
    assert.deepEqual(vatBreakdown([{ amount: -55, vatRate: 10 }]), [{ vatRate: 10, base: -50, amount: -5 }]);
    assert.deepEqual(vatBreakdown([{ amount: 1055, vatRate: 5.5 }]), [
      { vatRate: 5.5, base: 1000, amount: 55 },
    ]);
    assert.deepEqual(vatBreakdown([{ amount: 1200, vatRate: null }]), []);
  });

  it('numbers invoices by series, year and a six-digit sequence', () => {
    assert.equal(invoiceNumber('F', 2027, 1), 'F2027-000001');
    assert.equal(invoiceNumber('R', 2028, 123456), 'R2028-123456');
    assert.equal(invoiceNumber('F', 2027, 1234567), 'F2027-1234567');
  });
});
