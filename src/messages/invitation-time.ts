import { addDays, zonedInstant } from '../dates/dates.ts';

/**
 * When the check-in invitation goes out (API.md 10): `days` before the check-in date at `time`
 * hotel time, or at once (`now`) for a reservation made after that moment.
 */
export function invitationDueAt(input: {
  checkIn: string;
  timezone: string;
  days: number;
  time: string;
  now: Date;
}): Date {
  const due = zonedInstant(addDays(input.checkIn, -input.days), input.time, input.timezone);
  return due.getTime() > input.now.getTime() ? due : input.now;
}
