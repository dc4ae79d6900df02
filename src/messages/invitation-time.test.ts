import assert from 'node:assert/strict';
import { test } from 'node:test';
import { invitationDueAt } from './invitation-time.ts';

test('the invitation is due days before check-in at the hotel-local time', () => {
  const now = new Date('2027-01-10T12:00:00Z');
  // Lisbon is UTC+1 in summer: 10:00 local on 2027-07-07 is 09:00Z.
  assert.equal(
    invitationDueAt({
      checkIn: '2027-07-10',
      timezone: 'Europe/Lisbon',
      days: 3,
      time: '10:00',
      now,
    }).toISOString(),
    '2027-07-07T09:00:00.000Z',
  );
  assert.equal(
    invitationDueAt({
      checkIn: '2027-03-01',
      timezone: 'America/New_York',
      days: 0,
      time: '08:30',
      now,
    }).toISOString(),
    '2027-03-01T13:30:00.000Z',
  );
});

test('a booking made after that moment is invited at once', () => {
  const now = new Date('2027-07-09T12:00:00Z');
  assert.equal(
    invitationDueAt({ checkIn: '2027-07-10', timezone: 'Europe/Lisbon', days: 3, time: '10:00', now }),
    now,
  );
});
