import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changesBetween } from './changes.ts';

const base = {
  checkIn: '2027-03-01',
  checkOut: '2027-03-04',
  adults: 2,
  children: [7],
  rooms: 1,
  roomType: { id: 'double', name: 'Double Room' },
  ratePlan: { id: 'flex', name: 'Flexible', refundable: true, prepayment: 'none' as const },
  services: ['breakfast', 'parking'],
  guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com', language: 'en' as const },
  specialRequests: null,
  total: { amount: 55200, currency: 'EUR' },
};

test('nothing the guest sees changed: no change', () => {
  assert.deepEqual(changesBetween(base, { ...base, services: ['parking', 'breakfast'] }), []);
});

test('each field the guest sees, in a fixed order', () => {
  assert.deepEqual(
    changesBetween(base, {
      ...base,
      checkOut: '2027-03-05',
      total: { amount: 70000, currency: 'EUR' },
      guest: { ...base.guest, language: 'pt' as const },
      specialRequests: 'late arrival',
    }),
    ['dates', 'language', 'specialRequests', 'total'],
  );
  assert.deepEqual(changesBetween(base, { ...base, adults: 1, children: [] }), ['party']);
});
