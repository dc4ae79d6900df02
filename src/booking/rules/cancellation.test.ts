import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cancellationCharge } from './cancellation.ts';
import type { CancellationPolicy } from './cancellation-policy.ts';

const refundable: CancellationPolicy = {
  refundable: true,
  freeCancellationUntil: '2027-02-27T00:00:00Z',
  penalty: { amount: 13500, currency: 'EUR' },
};
const nonRefundable: CancellationPolicy = {
  refundable: false,
  freeCancellationUntil: null,
  penalty: { amount: 55200, currency: 'EUR' },
};

describe('cancellationCharge', () => {
  it('charges nothing before the deadline and refunds everything paid', () => {
    const now = new Date('2027-02-26T23:59:59Z');
    assert.deepEqual(cancellationCharge({ policy: refundable, total: 55200, paid: 55200, now }), {
      fee: 0,
      refund: 55200,
      due: 0,
    });
    assert.deepEqual(cancellationCharge({ policy: refundable, total: 55200, paid: 0, now }), {
      fee: 0,
      refund: 0,
      due: 0,
    });
  });

  it('charges the penalty from the deadline itself', () => {
    const now = new Date('2027-02-27T00:00:00Z');
    assert.deepEqual(cancellationCharge({ policy: refundable, total: 55200, paid: 55200, now }), {
      fee: 13500,
      refund: 41700,
      due: 0,
    });
  });

  it('leaves the penalty due when nothing or too little was paid', () => {
    const now = new Date('2027-03-01T10:00:00Z');
    assert.deepEqual(cancellationCharge({ policy: refundable, total: 55200, paid: 0, now }), {
      fee: 13500,
      refund: 0,
      due: 13500,
    });
    assert.deepEqual(cancellationCharge({ policy: refundable, total: 55200, paid: 10000, now }), {
      fee: 13500,
      refund: 0,
      due: 3500,
    });
  });

  it('charges a non-refundable plan its whole total at any time', () => {
    const early = new Date('2026-11-22T00:00:00Z');
    assert.deepEqual(cancellationCharge({ policy: nonRefundable, total: 55200, paid: 55200, now: early }), {
      fee: 55200,
      refund: 0,
      due: 0,
    });
    assert.deepEqual(cancellationCharge({ policy: nonRefundable, total: 55200, paid: 0, now: early }), {
      fee: 55200,
      refund: 0,
      due: 55200,
    });
  });

  it('refunds a non-refundable overpayment above the total', () => {
    const now = new Date('2027-01-01T00:00:00Z');
    assert.deepEqual(cancellationCharge({ policy: nonRefundable, total: 50000, paid: 55200, now }), {
      fee: 50000,
      refund: 5200,
      due: 0,
    });
  });

  it('has no fee when the penalty is zero', () => {
    const policy = { ...refundable, penalty: { amount: 0, currency: 'EUR' } };
    const now = new Date('2027-03-01T00:00:00Z');
    assert.deepEqual(cancellationCharge({ policy, total: 55200, paid: 100, now }), {
      fee: 0,
      refund: 100,
      due: 0,
    });
  });
});
