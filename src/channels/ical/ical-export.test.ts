import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calendarName } from './ical-export.ts';

describe('iCal export: the calendar name', () => {
  it('is the hotel’s and the room type’s, each control character a space, so no property is injected', () => {
    assert.equal(calendarName('Harbour View', 'Suite'), 'Harbour View – Suite');
    const name = calendarName('Hotel\r\nBEGIN:VEVENT\rX', 'Suite\nEND:VCALENDAR\u0007');
    assert.equal(name, 'Hotel BEGIN:VEVENT X – Suite END:VCALENDAR ');
    assert.ok(!/[\r\n]/.test(name));
  });
});
