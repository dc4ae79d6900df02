import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffHolds, type HeldStay, nightsCovered } from './external-holds.ts';

const hold = (uid: string, checkIn: string, checkOut: string, summary: string | null = null): HeldStay => ({
  uid,
  checkIn,
  checkOut,
  summary,
});

describe('external holds: what a fetch changes', () => {
  it('keeps unchanged holds, replaces moved ones, drops gone ones and adds new ones', () => {
    const old = [
      hold('a', '2027-03-01', '2027-03-03'),
      hold('b', '2027-03-05', '2027-03-06'),
      hold('c', '2027-04-01', '2027-04-02'),
    ];
    const next = [
      hold('a', '2027-03-01', '2027-03-03'),
      hold('b', '2027-03-06', '2027-03-07'),
      hold('d', '2027-05-01', '2027-05-02'),
    ];
    const { gone, added } = diffHolds(old, next);
    assert.deepEqual(
      gone.map((h) => h.uid),
      ['b', 'c'],
    );
    assert.deepEqual(
      added.map((h) => h.uid),
      ['b', 'd'],
    );
    assert.deepEqual(diffHolds(next, next), { gone: [], added: [] });
  });

  it('lists each night covered once, in order, from today', () => {
    const stays = [
      hold('x', '2027-02-27', '2027-03-03'),
      hold('y', '2027-03-02', '2027-03-04'),
      hold('z', '2027-03-10', '2027-03-11'),
      hold('past', '2027-02-01', '2027-02-05'),
    ];
    assert.deepEqual(nightsCovered(stays, '2027-03-01'), [
      '2027-03-01',
      '2027-03-02',
      '2027-03-03',
      '2027-03-10',
    ]);
    assert.deepEqual(nightsCovered([], '2027-03-01'), []);
  });
});
