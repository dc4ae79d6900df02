import { type Static, Type } from '@sinclair/typebox';
import { CalendarDate, MoneyRef } from '../infra/http/common-schemas.ts';

/** The reservation object (API.md 2.6, 7.2, 7.5) and the shapes it shares with search and quote. */

export const HotelDate = CalendarDate('hotel-local date YYYY-MM-DD', ['2027-03-01']);
export const Instant = Type.String({
  format: 'date-time',
  description: 'RFC 3339 UTC instant',
  examples: ['2027-02-27T00:00:00Z'],
});

/** The language of the guest's messages (API.md 10). */
export const GuestLanguage = Type.Union([Type.Literal('en'), Type.Literal('es'), Type.Literal('pt')], {
  description:
    'the language of the guest’s e-mails: given at booking, else from the booking request’s Accept-Language, else en',
});

export const RoomTypeRef = Type.Object({ id: Type.String(), name: Type.String() });
/** A rate plan's payment at booking: nothing, the whole stay, or a deposit (API.md 14.2). */
export const PrepaymentKind = Type.Union(
  [Type.Literal('none'), Type.Literal('full'), Type.Literal('deposit')],
  {
    description:
      '`none`: paid at the hotel; `full`: the whole stay at booking; `deposit`: part at booking (`deposit`), the balance later to the card on file (`balanceDueDays`)',
  },
);
export const DepositTerms = Type.Object(
  {
    percent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'percent of the total' })),
    nights: Type.Optional(Type.Integer({ minimum: 1, description: 'the price of the first n nights' })),
  },
  { description: 'what a `deposit` plan takes at booking: one of `percent` or `nights`' },
);
export const RatePlanSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  refundable: Type.Boolean(),
  prepayment: PrepaymentKind,
  deposit: Type.Optional(DepositTerms),
  balanceDueDays: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'a `deposit` plan: days before check-in the balance is charged to the card on file (at CHECKIN_INVITE_TIME, hotel time); 0 = paid at the hotel',
    }),
  ),
});

/** The promotion code a stay is priced with (API.md 14.1). */
export const AppliedPromotion = Type.Object(
  { code: Type.String({ examples: ['SPRING-25'] }), name: Type.String({ examples: ['Spring offer'] }) },
  { description: 'the promotion code applied (docs/api.md §13.2.1); its discount is the `discount` line' },
);

export const PriceLine = Type.Object(
  {
    type: Type.Union(
      [Type.Literal('room'), Type.Literal('discount'), Type.Literal('service'), Type.Literal('tax')],
      {
        description: 'a `discount` line (a promotion code, docs/api.md §13.2.1) has a negative amount',
      },
    ),
    code: Type.String(),
    name: Type.String(),
    date: Type.Optional(HotelDate),
    quantity: Type.Integer(),
    unitAmount: MoneyRef,
    amount: MoneyRef,
  },
  { $id: 'PriceLine', description: 'amount = unitAmount × quantity' },
);
export type PriceLine = Static<typeof PriceLine>;
export const PriceLineRef = Type.Ref(PriceLine);

export const CancellationPolicy = Type.Object(
  {
    refundable: Type.Boolean(),
    freeCancellationUntil: Type.Union([Instant, Type.Null()], {
      description:
        'cancellation is free before this instant; null for a non-refundable plan, and when that instant had already passed at quote time (cancelling then costs `penalty` from the start)',
    }),
    penalty: MoneyRef,
  },
  { $id: 'CancellationPolicy' },
);
export const PolicyRef = Type.Ref(CancellationPolicy);

export const IncludedTax = Type.Object({ code: Type.String(), name: Type.String(), amount: MoneyRef });

/** The stay as asked for, echoed by search, quote and reservation responses. */
export const stayEchoFields = {
  checkIn: HotelDate,
  checkOut: HotelDate,
  nights: Type.Integer(),
  adults: Type.Integer(),
  children: Type.Array(Type.Integer()),
  rooms: Type.Integer(),
  services: Type.Array(Type.String()),
};

export const StayState = Type.Object(
  {
    status: Type.Union(
      ['expected', 'in_house', 'checked_out', 'no_show'].map((s) => Type.Literal(s)),
      {
        description: 'what happened at the hotel: set by the front desk (arrive, depart, no-show)',
      },
    ),
    arrivedAt: Type.Union([Instant, Type.Null()]),
    departedAt: Type.Union([Instant, Type.Null()]),
    roomNumbers: Type.Array(Type.String(), { description: 'the rooms given at arrival' }),
  },
  { description: 'The stay as the front desk records it (docs/api.md §7.5)' },
);

/** One payment of a `deposit` plan's schedule (API.md 14.2). */
export const ScheduledPayment = Type.Object(
  {
    kind: Type.Union([Type.Literal('deposit'), Type.Literal('balance')]),
    dueAt: Type.String({ format: 'date-time', description: 'RFC 3339 UTC instant' }),
    amount: MoneyRef,
    status: Type.Union(['paid', 'scheduled', 'failed', 'cancelled'].map((s) => Type.Literal(s))),
    collection: Type.Union([Type.Literal('card_on_file'), Type.Literal('at_hotel')], {
      description:
        '`card_on_file`: charged by the service when due; `at_hotel`: a balance paid at the hotel (`balanceDueDays` 0), or by the desk with charge-card',
    }),
  },
  { $id: 'ScheduledPayment' },
);

const PaymentState = Type.Object({
  status: Type.Union(['unpaid', 'paid', 'refunded', 'partially_refunded'].map((s) => Type.Literal(s))),
  paid: MoneyRef,
  due: MoneyRef,
  schedule: Type.Optional(
    Type.Array(Type.Ref(ScheduledPayment), {
      description:
        'a `deposit` plan: the deposit taken at booking and the balance charged to the card on file at checkIn − balanceDueDays (docs/api.md §13.2.2); absent for other plans',
    }),
  ),
  card: Type.Optional(
    Type.Object(
      { brand: Type.Optional(Type.String()), last4: Type.Optional(Type.String()) },
      { description: 'the card on file (a `deposit` plan), as the provider names it' },
    ),
  ),
});

export const reservationFields = {
  id: Type.String({ description: 'confirmation code (Crockford base32)', examples: ['R7K3M9Q2X'] }),
  status: Type.Union([Type.Literal('confirmed'), Type.Literal('cancelled')]),
  hotelId: Type.String(),
  ...stayEchoFields,
  roomType: RoomTypeRef,
  ratePlan: RatePlanSummary,
  guest: Type.Object({
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    phone: Type.Optional(Type.String()),
    language: GuestLanguage,
  }),
  specialRequests: Type.Union([Type.String(), Type.Null()]),
  lines: Type.Array(PriceLineRef),
  total: MoneyRef,
  includedTaxes: Type.Array(IncludedTax),
  cancellationPolicy: PolicyRef,
  promotion: Type.Optional(AppliedPromotion),
  payment: PaymentState,
  cancellation: Type.Union([
    Type.Object({
      cancelledAt: Instant,
      reason: Type.Union([Type.String(), Type.Null()]),
      fee: MoneyRef,
      refund: MoneyRef,
    }),
    Type.Null(),
  ]),
  checkin: Type.Object({
    status: Type.Union([Type.Literal('not_started'), Type.Literal('in_progress'), Type.Literal('completed')]),
  }),
  stay: StayState,
  version: Type.Integer({ description: 'also sent as the ETag; send it back in If-Match' }),
  createdAt: Instant,
  updatedAt: Instant,
};

export const Reservation = Type.Object(reservationFields, {
  $id: 'Reservation',
  description: 'The reservation; header ETag carries its version',
});
export type Reservation = Static<typeof Reservation>;

export const OperatorReservation = Type.Object(
  {
    ...reservationFields,
    internalNotes: Type.Union([Type.String(), Type.Null()], {
      description: 'the hotel’s own notes, never shown to the guest',
    }),
    source: Type.Union([Type.Literal('api'), Type.Literal('operator')], {
      description: 'who made it: the public booking API or the hotel',
    }),
  },
  {
    $id: 'OperatorReservation',
    description: 'The reservation as the hotel sees it (docs/api.md §7.2); header ETag carries its version',
  },
);
export type OperatorReservation = Static<typeof OperatorReservation>;
