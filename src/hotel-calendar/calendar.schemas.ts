import { type Static, Type } from '@sinclair/typebox';
import { CalendarDate } from '../infra/http/common-schemas.ts';

/** The operator calendar's wire format (API.md 7.4). */

export const MAX_CALENDAR_NIGHTS = 366;

const CatalogueId = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' });
const MinorUnits = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });
const Nullable = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.Boolean>>(
  schema: T,
  description: string,
) => Type.Optional(Type.Union([schema, Type.Null()], { description: `${description}; \`null\` clears` }));

export const DAYS_OF_WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

export const CalendarQuery = Type.Object(
  {
    from: CalendarDate('first night shown'),
    to: CalendarDate(`last night shown (inclusive; at most ${MAX_CALENDAR_NIGHTS} nights)`),
  },
  { additionalProperties: false },
);
export type CalendarQuery = Static<typeof CalendarQuery>;

const NightPriceView = Type.Object({
  base: Type.Integer(),
  includedAdults: Type.Integer(),
  extraAdult: Type.Integer(),
  child: Type.Integer(),
});

const CalendarNight = Type.Object({
  date: CalendarDate('the night'),
  rooms: Type.Integer({ description: 'rooms for sale that night' }),
  sold: Type.Integer(),
  left: Type.Integer(),
  external: Type.Integer({
    description: 'rooms held by events of imported iCal feeds (docs/api.md §9.1), counted out of `left`',
  }),
  conflicts: Type.Integer({
    description:
      'external holds that found no room left (Innkeep had sold it): overbookings the hotel must resolve',
  }),
  restrictions: Type.Object(
    {
      stopSell: Type.Boolean(),
      closedToArrival: Type.Boolean(),
      closedToDeparture: Type.Boolean(),
      minStay: Type.Union([Type.Integer(), Type.Null()], { description: 'for arrivals that night' }),
      maxStay: Type.Union([Type.Integer(), Type.Null()], { description: 'for arrivals that night' }),
    },
    {
      description:
        'in force for every rate plan (catalogue restrictions naming rate plans are left out), overrides included',
    },
  ),
  prices: Type.Record(Type.String(), NightPriceView, {
    description: 'by rate plan id, for each plan that sells the room type',
  }),
});

export const CalendarView = Type.Object(
  {
    hotelId: Type.String(),
    from: CalendarDate(),
    to: CalendarDate(),
    roomTypes: Type.Array(Type.Object({ id: Type.String(), nights: Type.Array(CalendarNight) })),
  },
  { title: 'Calendar' },
);
export type CalendarView = Static<typeof CalendarView>;

export const CalendarSet = Type.Object(
  {
    rooms: Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }), 'rooms for sale that night'),
    stopSell: Nullable(Type.Boolean(), 'not for sale that night'),
    closedToArrival: Nullable(Type.Boolean(), 'no arrival that day'),
    closedToDeparture: Nullable(Type.Boolean(), 'no departure that day'),
    minStay: Nullable(Type.Integer({ minimum: 1, maximum: 365 }), 'fewest nights for arrivals that day'),
    maxStay: Nullable(Type.Integer({ minimum: 1, maximum: 365 }), 'most nights for arrivals that day'),
    base: Nullable(MinorUnits, 'room price per night (minor units)'),
    includedAdults: Nullable(Type.Integer({ minimum: 1, maximum: 100 }), 'adults included in base'),
    extraAdult: Nullable(MinorUnits, 'per adult above includedAdults, per night'),
    child: Nullable(MinorUnits, 'per child per night'),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type CalendarSet = Static<typeof CalendarSet>;

export const CalendarUpdate = Type.Object(
  {
    roomTypeIds: Type.Optional(
      Type.Array(CatalogueId, { minItems: 1, maxItems: 200, uniqueItems: true, description: 'absent = all' }),
    ),
    ratePlanIds: Type.Optional(
      Type.Array(CatalogueId, {
        minItems: 1,
        maxItems: 200,
        uniqueItems: true,
        description: 'for price fields only; absent = every plan that sells the room type',
      }),
    ),
    from: CalendarDate('first night'),
    to: CalendarDate('last night (inclusive)'),
    daysOfWeek: Type.Optional(
      Type.Array(Type.Union(DAYS_OF_WEEK.map((d) => Type.Literal(d))), {
        minItems: 1,
        maxItems: 7,
        uniqueItems: true,
        description: 'absent = every day',
      }),
    ),
    set: CalendarSet,
  },
  { additionalProperties: false },
);
export type CalendarUpdate = Static<typeof CalendarUpdate>;

export const CalendarPatch = Type.Object(
  { updates: Type.Array(CalendarUpdate, { minItems: 1, maxItems: 100 }) },
  {
    additionalProperties: false,
    description:
      'Rules no schema can say (400 validation_error): in each update `from` is not after `to`, the room types and rate plans are the hotel’s; the updates together span at most 366 nights.',
    examples: [
      {
        updates: [
          {
            roomTypeIds: ['double'],
            from: '2027-03-01',
            to: '2027-03-31',
            daysOfWeek: ['fri', 'sat'],
            set: { rooms: 8, closedToArrival: true, minStay: 2 },
          },
          {
            roomTypeIds: ['double'],
            ratePlanIds: ['flex'],
            from: '2027-03-01',
            to: '2027-03-31',
            set: { base: 14000, extraAdult: 3500 },
          },
        ],
      },
    ],
  },
);
export type CalendarPatch = Static<typeof CalendarPatch>;
