import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlanPricing, RateDef } from '../catalog/rate-plan.model.ts';
import { pricingProblems } from '../catalog/validate/pricing-problems.ts';
import { overlay } from './apply-rate-plans.ts';

const rate = (from: string, to: string, amount: number, days?: RateDef['days']): RateDef => ({
  roomTypeId: 'double',
  from,
  to,
  ...(days ? { days } : {}),
  byGuests: [{ guests: 2, amount }],
});
const plan = (rates: RateDef[]): PlanPricing => ({ per: 'room', rates });

describe('weekday rates (Rate Mon…Sun)', () => {
  it('may share dates with rates of other weekdays, not of the same', () => {
    const ok = plan([
      rate('2027-03-01', '2027-03-31', 100, ['sat', 'sun']),
      rate('2027-03-01', '2027-03-31', 80, ['mon', 'tue', 'wed', 'thu', 'fri']),
    ]);
    assert.deepEqual(pricingProblems(ok, new Set(['double']), 'p'), []);
    const clash = plan([
      rate('2027-03-01', '2027-03-31', 100, ['sat', 'sun']),
      rate('2027-03-10', '2027-03-12', 80, ['fri', 'sat']),
    ]);
    assert.deepEqual(pricingProblems(clash, new Set(['double']), 'p'), [
      'p/rates/1: overlaps rate 0 of the same room type',
    ]);
    const allDays = plan([
      rate('2027-03-01', '2027-03-31', 100),
      rate('2027-03-10', '2027-03-12', 80, ['sat']),
    ]);
    assert.equal(pricingProblems(allDays, new Set(['double']), 'p').length, 1);
  });

  it('an Overlay weekday rate replaces only its weekdays inside its period', () => {
    const before = plan([rate('2027-03-01', '2027-03-31', 100)]);
    const after = overlay(before, { rates: [rate('2027-03-10', '2027-03-20', 150, ['fri', 'sat'])] });
    assert.deepEqual(
      after.rates.map((r) => [r.from, r.to, r.days?.join(','), r.byGuests[0]?.amount]),
      [
        ['2027-03-01', '2027-03-09', undefined, 100],
        ['2027-03-10', '2027-03-20', 'mon,tue,wed,thu,sun', 100],
        ['2027-03-10', '2027-03-20', 'fri,sat', 150],
        ['2027-03-21', '2027-03-31', undefined, 100],
      ],
    );
    assert.deepEqual(pricingProblems(after, new Set(['double']), 'p'), []);
  });

  it('an Overlay rate of every day replaces weekday rates whole in its period; other days stay', () => {
    const before = plan([
      rate('2027-03-01', '2027-03-31', 100, ['sat']),
      rate('2027-03-01', '2027-03-31', 80, ['sun']),
    ]);
    const after = overlay(before, { rates: [rate('2027-03-01', '2027-03-31', 90, ['sat'])] });
    assert.deepEqual(after.rates.map((r) => [r.days?.join(','), r.byGuests[0]?.amount]).sort(), [
      ['sat', 90],
      ['sun', 80],
    ]);
  });
});
