import { type Static, Type } from '@sinclair/typebox';
import { CalendarDate } from '../infra/http/common-schemas.ts';
import { OperatorReservation } from '../reservations/reservation.schemas.ts';

export const CHECKIN_STATUSES = ['not_started', 'in_progress', 'completed'] as const;
const literals = (values: readonly string[]) => values.map((v) => Type.Literal(v));

/** Query strings arrive as strings (no coercion): each filter is checked as text. */
export const ReservationListQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(literals(['confirmed', 'cancelled']))),
    arrivalFrom: Type.Optional(CalendarDate('first check-in date, inclusive')),
    arrivalTo: Type.Optional(CalendarDate('last check-in date, inclusive')),
    departureFrom: Type.Optional(CalendarDate('first check-out date, inclusive')),
    departureTo: Type.Optional(CalendarDate('last check-out date, inclusive')),
    checkin: Type.Optional(Type.Union(literals(CHECKIN_STATUSES))),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '\\S',
        description:
          'a confirmation code, or part of the guest’s name or e-mail; case and accents do not matter',
        examples: ['joao'],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, description: 'reservations per page (default 50)' }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          '`nextCursor` of the previous page; it carries the filters, so they may be left out (if sent, they must be the same)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReservationListQuery = Static<typeof ReservationListQuery>;

export const ReservationListPage = Type.Object(
  {
    data: Type.Array(Type.Ref(OperatorReservation), { description: 'by check-in date, then code' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'pass as `cursor` for the next page; `null` on the last page',
    }),
  },
  { title: 'OperatorReservationPage' },
);
