import { ratePlan } from '../../src/catalog/catalog.fixtures.ts';

/**
 * The deposit tests' plan (API.md 14.2): 30 % at booking, the balance charged to the card on file
 * 7 days before arrival, a double at 100.00 a night.
 */
export function depositPlan() {
  return ratePlan({
    id: 'deposit',
    name: 'Deposit 30%',
    prepayment: 'deposit',
    deposit: { percent: 30 },
    balanceDueDays: 7,
    prices: { double: { base: 10000, includedAdults: 2, extraAdult: 0, child: 0 } },
  });
}
