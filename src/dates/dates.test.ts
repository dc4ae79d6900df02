import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addDays,
  eachNight,
  hotelToday,
  isCalendarDate,
  nightsBetween,
  toRfc3339,
  zonedInstant,
} from './dates.ts';

describe('calendar dates', () => {
  it('adds days across month, year and leap-day boundaries', () => {
    assert.equal(addDays('2027-03-01', 0), '2027-03-01');
    assert.equal(addDays('2027-01-31', 1), '2027-02-01');
    assert.equal(addDays('2027-12-31', 1), '2028-01-01');
    assert.equal(addDays('2028-02-28', 1), '2028-02-29');
    assert.equal(addDays('2027-02-28', 1), '2027-03-01');
    assert.equal(addDays('2027-03-01', -2), '2027-02-27');
    assert.equal(addDays('2027-01-01', 365), '2028-01-01');
  });

  it('is unaffected by daylight-saving days', () => {
    assert.equal(addDays('2027-03-27', 2), '2027-03-29');
    assert.equal(addDays('2027-10-30', 2), '2027-11-01');
    assert.equal(nightsBetween('2027-03-27', '2027-03-29'), 2);
  });

  it('counts nights, negative when check-out comes first', () => {
    assert.equal(nightsBetween('2027-03-01', '2027-03-04'), 3);
    assert.equal(nightsBetween('2027-03-01', '2027-03-01'), 0);
    assert.equal(nightsBetween('2027-03-04', '2027-03-01'), -3);
    assert.equal(nightsBetween('2027-12-30', '2028-01-02'), 3);
  });

  it('lists each night from check-in to the day before check-out', () => {
    assert.deepEqual(eachNight('2027-12-30', '2028-01-02'), ['2027-12-30', '2027-12-31', '2028-01-01']);
    assert.deepEqual(eachNight('2027-03-01', '2027-03-01'), []);
    assert.deepEqual(eachNight('2027-03-04', '2027-03-01'), []);
  });

  it('accepts only real YYYY-MM-DD dates', () => {
    for (const ok of ['2027-02-28', '2028-02-29', '2000-02-29', '2027-12-31', '2027-01-01']) {
      assert.equal(isCalendarDate(ok), true, ok);
    }
    for (const bad of [
      '2027-02-29',
      '1900-02-29',
      '2027-02-30',
      '2027-04-31',
      '2027-13-01',
      '2027-00-10',
      '2027-01-00',
      '2027-1-01',
      '27-01-01',
      '2027-01-01T00:00:00Z',
      ' 2027-01-01',
      '',
    ]) {
      assert.equal(isCalendarDate(bad), false, bad);
    }
  });

  it('refuses to do arithmetic on a non-date', () => {
    assert.throws(() => addDays('2027-02-30', 1), RangeError);
    assert.throws(() => nightsBetween('x', '2027-01-01'), RangeError);
  });
});

describe('hotel time', () => {
  it("gives the hotel's date, not the machine's", () => {
    const now = new Date('2027-03-01T23:30:00Z');
    assert.equal(hotelToday('Europe/Lisbon', now), '2027-03-01');
    assert.equal(hotelToday('Europe/Berlin', now), '2027-03-02');
    assert.equal(hotelToday('America/New_York', new Date('2027-03-02T04:59:00Z')), '2027-03-01');
    assert.equal(hotelToday('Pacific/Kiritimati', new Date('2027-03-01T10:00:00Z')), '2027-03-02');
  });

  it('turns hotel wall time into a UTC instant with summer and winter offsets', () => {
    assert.equal(toRfc3339(zonedInstant('2027-03-01', '14:00', 'Europe/Lisbon')), '2027-03-01T14:00:00Z');
    assert.equal(toRfc3339(zonedInstant('2027-07-01', '14:00', 'Europe/Lisbon')), '2027-07-01T13:00:00Z');
    assert.equal(toRfc3339(zonedInstant('2027-03-01', '00:00', 'America/New_York')), '2027-03-01T05:00:00Z');
    assert.equal(toRfc3339(zonedInstant('2027-07-01', '00:00', 'America/New_York')), '2027-07-01T04:00:00Z');
  });

  it('moves a wall time skipped by the spring-forward gap forward by the gap', () => {
    // 2027-03-14 02:30 does not exist in New York: clocks jump from 02:00 EST to 03:00 EDT.
    assert.equal(toRfc3339(zonedInstant('2027-03-14', '02:30', 'America/New_York')), '2027-03-14T07:30:00Z');
    // Lisbon jumps from 01:00 to 02:00 on 2027-03-28.
    assert.equal(toRfc3339(zonedInstant('2027-03-28', '01:30', 'Europe/Lisbon')), '2027-03-28T01:30:00Z');
    // Santiago springs forward at midnight, so 00:00 itself is skipped on 2027-09-05.
    assert.equal(toRfc3339(zonedInstant('2027-09-05', '00:00', 'America/Santiago')), '2027-09-05T04:00:00Z');
  });

  it('takes the earlier of a wall time repeated when clocks fall back', () => {
    // 2027-11-07 01:30 happens twice in New York; the first is still EDT (UTC-4).
    assert.equal(toRfc3339(zonedInstant('2027-11-07', '01:30', 'America/New_York')), '2027-11-07T05:30:00Z');
  });

  it('rejects malformed input', () => {
    assert.throws(() => zonedInstant('2027-02-30', '00:00', 'Europe/Lisbon'), RangeError);
    assert.throws(() => zonedInstant('2027-03-01', '24:00', 'Europe/Lisbon'), RangeError);
    assert.throws(() => zonedInstant('2027-03-01', '00:00', 'Mars/Olympus'), RangeError);
  });

  it('formats instants as RFC 3339 UTC without milliseconds', () => {
    assert.equal(toRfc3339(new Date('2027-03-01T14:00:00.000Z')), '2027-03-01T14:00:00Z');
    assert.equal(toRfc3339(new Date('2027-03-01T14:00:05.999Z')), '2027-03-01T14:00:05Z');
  });
});
