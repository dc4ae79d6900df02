import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

/**
 * The calendar file of a booking message (API.md 10, RFC 5545): one all-day VEVENT from check-in
 * to check-out, `UID:<code>@<host>`, `SEQUENCE` = the reservation's version so calendars replace
 * the older copy; `METHOD:CANCEL` once cancelled, so they remove it.
 */
export function reservationCalendar(input: {
  code: string;
  host: string;
  checkIn: string;
  checkOut: string;
  version: number;
  cancelled: boolean;
  summary: string;
  location: string;
  description: string;
  stamp: Date;
}): string {
  const calendar = ical({
    prodId: { company: 'Innkeep', product: 'Innkeep', language: 'EN' },
    method: input.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.PUBLISH,
  });
  calendar.createEvent({
    id: `${input.code}@${input.host}`,
    sequence: input.version,
    stamp: input.stamp,
    // Dates, not instants: an all-day event keeps its dates in every time zone.
    start: input.checkIn,
    end: input.checkOut,
    allDay: true,
    summary: input.summary,
    location: input.location,
    description: input.description,
    status: input.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}
