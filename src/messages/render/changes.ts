import type { Reservation } from '../../reservations/reservation.schemas.ts';

/** What a guest is told changed in `booking_modified` (API.md 10), in this order. */
export const CHANGE_FIELDS = [
  'dates',
  'party',
  'rooms',
  'roomType',
  'ratePlan',
  'services',
  'guest',
  'language',
  'specialRequests',
  'total',
] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

type View = Pick<
  Reservation,
  | 'checkIn'
  | 'checkOut'
  | 'adults'
  | 'children'
  | 'rooms'
  | 'roomType'
  | 'ratePlan'
  | 'services'
  | 'guest'
  | 'specialRequests'
  | 'total'
>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of the stay the guest sees that differ between two versions of a reservation. */
export function changesBetween(before: View, after: View): ChangeField[] {
  const { language: languageBefore, ...guestBefore } = before.guest;
  const { language: languageAfter, ...guestAfter } = after.guest;
  const differs: Record<ChangeField, boolean> = {
    dates: before.checkIn !== after.checkIn || before.checkOut !== after.checkOut,
    party: before.adults !== after.adults || !same(before.children, after.children),
    rooms: before.rooms !== after.rooms,
    roomType: before.roomType.id !== after.roomType.id,
    ratePlan: before.ratePlan.id !== after.ratePlan.id,
    services: !same([...before.services].sort(), [...after.services].sort()),
    guest: !same(guestBefore, guestAfter),
    language: (languageBefore ?? 'en') !== (languageAfter ?? 'en'),
    specialRequests: (before.specialRequests ?? null) !== (after.specialRequests ?? null),
    total: !same(before.total, after.total),
  };
  return CHANGE_FIELDS.filter((f) => differs[f]);
}
