import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countEvents, MAX_FEED_EVENTS, parseFeed } from './ical-parse.ts';

const calendar = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', ...events, 'END:VCALENDAR', ''].join('\r\n');
const event = (uid: string, ...lines: string[]) =>
  ['BEGIN:VEVENT', `UID:${uid}`, ...lines, 'END:VEVENT'].join('\r\n');
const options = {
  timezone: 'Europe/Lisbon',
  host: 'booking.example.com',
  first: '2027-01-01',
  last: '2027-12-31',
};
const nights = async (text: string) =>
  (await parseFeed(text, options)).stays.map(
    (s) => [s.uid, s.checkIn, s.checkOut] as [string, string, string],
  );

describe('iCal events → nights held (docs/api.md §9.1)', () => {
  it('all-day: DTSTART to DTEND exclusive; one night without DTEND', async () => {
    assert.deepEqual(
      await nights(
        calendar(
          event('a', 'DTSTART;VALUE=DATE:20270301', 'DTEND;VALUE=DATE:20270304'),
          event('b', 'DTSTART;VALUE=DATE:20270310'),
        ),
      ),
      [
        ['a', '2027-03-01', '2027-03-04'],
        ['b', '2027-03-10', '2027-03-11'],
      ],
    );
  });

  it('timed, in any zone, read in the hotel’s: the nights it touches, the check-out morning not', async () => {
    assert.deepEqual(
      await nights(
        calendar(
          event(
            'zoned',
            'DTSTART;TZID=Europe/Berlin:20270305T160000',
            'DTEND;TZID=Europe/Berlin:20270307T120000',
          ),
          event('utc-midnights', 'DTSTART:20270401T000000Z', 'DTEND:20270403T000000Z'),
          event('late', 'DTSTART:20270501T150000', 'DTEND:20270502T200000'),
          event('same-day', 'DTSTART:20270601T100000', 'DTEND:20270601T110000'),
        ),
      ),
      [
        ['zoned', '2027-03-05', '2027-03-07'],
        ['utc-midnights', '2027-04-01', '2027-04-03'],
        ['late', '2027-05-01', '2027-05-03'],
        ['same-day', '2027-06-01', '2027-06-02'],
      ],
    );
  });

  it('ignores our own UIDs, cancelled and free events; clips to the window; folded lines', async () => {
    const parsed = await parseFeed(
      calendar(
        event('innkeep-2027-03-01-icf_abc@booking.example.com', 'DTSTART;VALUE=DATE:20270301'),
        event('gone', 'STATUS:CANCELLED', 'DTSTART;VALUE=DATE:20270301'),
        event('free', 'TRANSP:TRANSPARENT', 'DTSTART;VALUE=DATE:20270301'),
        event('past', 'DTSTART;VALUE=DATE:20261230', 'DTEND;VALUE=DATE:20270102'),
        event('fol', 'DTSTART;VALUE=DATE:20270801', 'SUMMARY:a long sum', ' mary'),
      ).replace('UID:fol', 'UID:fo\r\n ld'),
      options,
    );
    assert.equal(parsed.ignored, 3);
    assert.deepEqual(
      parsed.stays.map((s) => [s.uid, s.checkIn, s.checkOut, s.summary]),
      [
        ['past', '2027-01-01', '2027-01-02', null],
        ['fold', '2027-08-01', '2027-08-02', 'a long summary'],
      ],
    );
  });

  it('refuses what is not a calendar', async () => {
    await assert.rejects(parseFeed('<html>', options), /not an iCalendar/);
  });

  it('refuses a feed of more than 10,000 events before parsing it; 10,000 are read', async () => {
    const many = (n: number) =>
      calendar(
        ...Array.from({ length: n }, (_, i) =>
          event(`e${i}`, `DTSTART;VALUE=DATE:2027${i % 2 ? '03' : '04'}01`),
        ),
      );
    assert.equal(countEvents(many(3)), 3);
    await assert.rejects(
      parseFeed(many(MAX_FEED_EVENTS + 1), options),
      /too many events: 10001 \(at most 10000\)/,
    );
    assert.equal((await parseFeed(many(MAX_FEED_EVENTS), options)).stays.length, MAX_FEED_EVENTS);
  });
});
