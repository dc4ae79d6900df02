import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RoomTypeDef } from '../../catalog/catalog.schema.ts';
import { partyFits, splitParty } from './party.ts';

const double: RoomTypeDef = {
  id: 'double',
  name: 'Double Room',
  count: 10,
  maxAdults: 2,
  maxChildren: 1,
  maxOccupancy: 3,
};

describe('splitParty', () => {
  it('puts everyone in the only room', () => {
    assert.deepEqual(splitParty(2, 1, 1), [{ adults: 2, children: 1 }]);
  });

  it('spreads adults evenly, the first rooms taking the remainder', () => {
    assert.deepEqual(splitParty(4, 0, 2), [
      { adults: 2, children: 0 },
      { adults: 2, children: 0 },
    ]);
    assert.deepEqual(splitParty(5, 0, 3), [
      { adults: 2, children: 0 },
      { adults: 2, children: 0 },
      { adults: 1, children: 0 },
    ]);
  });

  it('spreads children independently of adults, also first rooms first', () => {
    assert.deepEqual(splitParty(3, 1, 2), [
      { adults: 2, children: 1 },
      { adults: 1, children: 0 },
    ]);
    assert.deepEqual(splitParty(2, 5, 2), [
      { adults: 1, children: 3 },
      { adults: 1, children: 2 },
    ]);
  });

  it('leaves rooms without adults when there are fewer adults than rooms', () => {
    assert.deepEqual(splitParty(1, 2, 2), [
      { adults: 1, children: 1 },
      { adults: 0, children: 1 },
    ]);
  });

  it('rejects impossible counts', () => {
    assert.throws(() => splitParty(2, 0, 0), RangeError);
    assert.throws(() => splitParty(2, 0, 1.5), RangeError);
    assert.throws(() => splitParty(-1, 0, 1), RangeError);
    assert.throws(() => splitParty(1, -1, 1), RangeError);
  });
});

describe('partyFits', () => {
  it('fits within every limit', () => {
    assert.equal(partyFits(double, splitParty(2, 1, 1)), true);
    assert.equal(partyFits(double, splitParty(4, 2, 2)), true);
    assert.equal(partyFits(double, splitParty(1, 0, 1)), true);
  });

  it('refuses too many adults in a room', () => {
    assert.equal(partyFits(double, splitParty(3, 0, 1)), false);
    // 5 adults over 2 rooms puts 3 in the first room.
    assert.equal(partyFits(double, splitParty(5, 0, 2)), false);
  });

  it('refuses too many children in a room', () => {
    assert.equal(partyFits(double, splitParty(1, 2, 1)), false);
  });

  it('refuses more guests than the room holds even when adults and children each fit', () => {
    const small: RoomTypeDef = { ...double, maxAdults: 2, maxChildren: 2, maxOccupancy: 3 };
    assert.equal(partyFits(small, splitParty(2, 1, 1)), true);
    assert.equal(partyFits(small, splitParty(2, 2, 1)), false);
  });

  it('refuses a room without an adult', () => {
    assert.equal(partyFits(double, splitParty(1, 1, 2)), false);
    assert.equal(partyFits(double, [{ adults: 0, children: 0 }]), false);
  });

  it('refuses an empty split', () => {
    assert.equal(partyFits(double, []), false);
  });
});
