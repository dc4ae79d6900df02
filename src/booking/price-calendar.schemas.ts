import { type Static, Type } from '@sinclair/typebox';
import { MoneyRef } from '../infra/http/common-schemas.ts';
import { HotelDate } from '../reservations/reservation.schemas.ts';

/** The price calendar (docs/api.md §9.1): a party's lowest price and rules, night by night. */

export const MAX_CALENDAR_NIGHTS = 366;

const Ages = Type.String({
  pattern: '^([0-9]|1[0-7])(,([0-9]|1[0-7])){0,49}$',
  description: 'children’s ages 0–17, comma-separated (`7,3`), or the parameter repeated',
});

export const PriceCalendarQuery = Type.Object(
  {
    from: HotelDate,
    to: Type.String({
      format: 'date',
      description:
        'hotel-local date after `from`: the nights from `from` up to the night before `to`, at most 366',
    }),
    adults: Type.Integer({ minimum: 1, maximum: 100, default: 2 }),
    children: Type.Optional(Type.Union([Ages, Type.Array(Ages, { maxItems: 50 })])),
    rooms: Type.Integer({ minimum: 1, maximum: 20, default: 1 }),
  },
  { additionalProperties: false },
);
export type PriceCalendarQuery = Static<typeof PriceCalendarQuery>;

export const CalendarNight = Type.Object({
  date: HotelDate,
  available: Type.Boolean({
    description:
      'some room type the party fits has the rooms left that night under some rate plan that sells it',
  }),
  fromPrice: Type.Union([MoneyRef, Type.Null()], {
    description:
      'the lowest room price of the night, all rooms together (a search’s `nightly` for that night); null when not available',
  }),
  closedToArrival: Type.Boolean({
    description: 'no arrival that day (a restriction, a past day, or beyond the booking window)',
  }),
  closedToDeparture: Type.Boolean({ description: 'no departure that day' }),
  minStay: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: 'fewest nights of a stay arriving that day; null: no minimum',
  }),
});

export const PriceCalendar = Type.Object({ data: Type.Array(CalendarNight) }, { title: 'PriceCalendar' });
export type PriceCalendar = Static<typeof PriceCalendar>;
