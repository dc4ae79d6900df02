import assert from 'node:assert/strict';
import { it } from 'node:test';
import { oneReservation } from './reservation.row.ts';

it('a statement that must answer one reservation and answers none is said to, not mapped', () => {
  // Before: toReservationRow(undefined), a TypeError about reading `id` of undefined.
  assert.throws(() => oneReservation([]), {
    message: 'a statement that must answer one reservation answered none',
  });
});
