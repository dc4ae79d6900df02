import { type Static, Type } from '@sinclair/typebox';
import { CalendarDate, MoneyRef } from '../infra/http/common-schemas.ts';

/** Request and response schemas of the booking API: they validate, serialise, type and document. */

const HotelDate = CalendarDate('hotel-local date YYYY-MM-DD', ['2027-03-01']);
const Instant = Type.String({
  format: 'date-time',
  description: 'RFC 3339 UTC instant',
  examples: ['2027-02-27T00:00:00Z'],
});
const CatalogId = Type.String({ minLength: 1, maxLength: 64 });

const stayFields = {
  hotelId: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'catalogue hotel id',
    examples: ['harbour-view'],
  }),
  checkIn: HotelDate,
  checkOut: CalendarDate('hotel-local date, after checkIn', ['2027-03-04']),
  adults: Type.Integer({ minimum: 1, maximum: 100, examples: [2] }),
  children: Type.Optional(
    Type.Array(Type.Integer({ minimum: 0, maximum: 17 }), {
      maxItems: 50,
      default: [],
      description: 'ages of the children, 0–17',
      examples: [[7]],
    }),
  ),
  rooms: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 1, examples: [1] })),
  services: Type.Optional(
    Type.Array(CatalogId, {
      maxItems: 50,
      default: [],
      description: 'service ids',
      examples: [['breakfast']],
    }),
  ),
};

export const SearchRequest = Type.Object(stayFields, {
  additionalProperties: false,
  examples: [
    {
      hotelId: 'harbour-view',
      checkIn: '2027-03-01',
      checkOut: '2027-03-04',
      adults: 2,
      children: [7],
      rooms: 1,
      services: ['breakfast'],
    },
  ],
});
export type SearchRequest = Static<typeof SearchRequest>;

export const QuoteRequest = Type.Object(
  {
    ...stayFields,
    roomTypeId: Type.String({ minLength: 1, maxLength: 64, examples: ['double'] }),
    ratePlanId: Type.String({ minLength: 1, maxLength: 64, examples: ['flex'] }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        hotelId: 'harbour-view',
        checkIn: '2027-03-01',
        checkOut: '2027-03-04',
        adults: 2,
        children: [7],
        services: ['breakfast'],
        roomTypeId: 'double',
        ratePlanId: 'flex',
      },
    ],
  },
);
export type QuoteRequest = Static<typeof QuoteRequest>;

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Email = Type.String({ format: 'email', maxLength: 254, examples: ['ana@example.com'] });
const Phone = Type.String({ pattern: '^\\+?[0-9 ()./-]{5,30}$', examples: ['+351912345678'] });

export const Guest = Type.Object(
  {
    firstName: Name,
    lastName: Name,
    email: Email,
    phone: Type.Optional(Phone),
  },
  { additionalProperties: false },
);
export type Guest = Static<typeof Guest>;

const PaymentInput = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'payment provider token',
      examples: ['tok_visa'],
    }),
  },
  { additionalProperties: false },
);

export const ReservationRequest = Type.Object(
  {
    quoteId: Type.String({ minLength: 1, maxLength: 100, examples: ['q_…'] }),
    guest: Guest,
    specialRequests: Type.Optional(Type.String({ maxLength: 2000, examples: ['late arrival'] })),
    payment: Type.Optional(PaymentInput),
  },
  { additionalProperties: false },
);
export type ReservationRequest = Static<typeof ReservationRequest>;

export const ModifyRequest = Type.Object(
  {
    checkIn: Type.Optional(HotelDate),
    checkOut: Type.Optional(HotelDate),
    adults: Type.Optional(stayFields.adults),
    children: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 17 }), { maxItems: 50 })),
    rooms: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
    services: Type.Optional(Type.Array(CatalogId, { maxItems: 50 })),
    roomTypeId: Type.Optional(CatalogId),
    ratePlanId: Type.Optional(CatalogId),
    guest: Type.Optional(
      Type.Object(
        {
          firstName: Type.Optional(Name),
          lastName: Type.Optional(Name),
          email: Type.Optional(Email),
          phone: Type.Optional(Type.Union([Phone, Type.Null()])),
        },
        {
          additionalProperties: false,
          description: 'partial: only the given fields change; phone null removes it',
        },
      ),
    ),
    specialRequests: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    payment: Type.Optional(PaymentInput),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ checkOut: '2027-03-05' }] },
);
export type ModifyRequest = Static<typeof ModifyRequest>;

export const CancelRequest = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 500, examples: ['change of plans'] })) },
  { additionalProperties: false },
);
export type CancelRequest = Static<typeof CancelRequest>;

export const ReservationParams = Type.Object({
  reservation: Type.String({
    minLength: 1,
    maxLength: 32,
    description: 'confirmation code',
    examples: ['R7K3M9Q2X'],
  }),
});

const RoomTypeRef = Type.Object({ id: Type.String(), name: Type.String() });
const RatePlanSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  refundable: Type.Boolean(),
  prepayment: Type.Union([Type.Literal('none'), Type.Literal('full')]),
});

export const PriceLine = Type.Object(
  {
    type: Type.Union([Type.Literal('room'), Type.Literal('service'), Type.Literal('tax')]),
    code: Type.String(),
    name: Type.String(),
    date: Type.Optional(HotelDate),
    quantity: Type.Integer(),
    unitAmount: MoneyRef,
    amount: MoneyRef,
  },
  { $id: 'PriceLine', description: 'amount = unitAmount × quantity' },
);
const PriceLineRef = Type.Ref(PriceLine);

export const CancellationPolicy = Type.Object(
  {
    refundable: Type.Boolean(),
    freeCancellationUntil: Type.Union([Instant, Type.Null()], {
      description: 'cancellation is free before this instant; null for a non-refundable plan',
    }),
    penalty: MoneyRef,
  },
  { $id: 'CancellationPolicy' },
);
const PolicyRef = Type.Ref(CancellationPolicy);

const IncludedTax = Type.Object({ code: Type.String(), name: Type.String(), amount: MoneyRef });

const RestrictionDetails = {
  rule: Type.Optional(
    Type.Union(
      ['stop_sell', 'closed_to_arrival', 'closed_to_departure', 'min_stay', 'max_stay', 'booking_window'].map(
        (r) => Type.Literal(r),
      ),
    ),
  ),
  message: Type.String(),
  minStay: Type.Optional(Type.Integer()),
  maxStay: Type.Optional(Type.Integer()),
  maxDaysBeforeArrival: Type.Optional(Type.Integer()),
  latestArrival: Type.Optional(HotelDate),
  from: Type.Optional(HotelDate),
  to: Type.Optional(HotelDate),
  dates: Type.Optional(Type.Array(HotelDate)),
};

/** The stay as asked for, echoed by search, quote and reservation responses. */
const stayEchoFields = {
  checkIn: HotelDate,
  checkOut: HotelDate,
  nights: Type.Integer(),
  adults: Type.Integer(),
  children: Type.Array(Type.Integer()),
  rooms: Type.Integer(),
  services: Type.Array(Type.String()),
};

export const SearchResponse = Type.Object(
  {
    hotel: Type.Object({
      id: Type.String(),
      name: Type.String(),
      timezone: Type.String(),
      currency: Type.String(),
    }),
    ...stayEchoFields,
    offers: Type.Array(
      Type.Object({
        roomType: Type.Object({ id: Type.String(), name: Type.String(), maxOccupancy: Type.Integer() }),
        ratePlan: RatePlanSummary,
        available: Type.Integer({ description: 'fewest rooms left on any night of the stay' }),
        nightly: Type.Array(Type.Object({ date: HotelDate, amount: MoneyRef }), {
          description: 'room price per night, all rooms together',
        }),
        total: MoneyRef,
        cancellationPolicy: PolicyRef,
      }),
    ),
    unavailable: Type.Array(
      Type.Object({
        roomType: RoomTypeRef,
        reason: Type.Union([Type.Literal('occupancy'), Type.Literal('restricted'), Type.Literal('sold_out')]),
        ...RestrictionDetails,
      }),
    ),
  },
  { description: 'Offers for the stay, and the room types that cannot be sold with the reason' },
);
export type SearchResponse = Static<typeof SearchResponse>;

export const QuoteResponse = Type.Object(
  {
    id: Type.String({ examples: ['q_5k2m…'] }),
    expiresAt: Instant,
    hotelId: Type.String(),
    ...stayEchoFields,
    roomType: RoomTypeRef,
    ratePlan: RatePlanSummary,
    lines: Type.Array(PriceLineRef),
    total: MoneyRef,
    includedTaxes: Type.Array(IncludedTax),
    cancellationPolicy: PolicyRef,
  },
  { description: 'The quote: a price locked until expiresAt (rooms are not held)' },
);
export type QuoteResponse = Static<typeof QuoteResponse>;

const PaymentState = Type.Object({
  status: Type.Union(['unpaid', 'paid', 'refunded', 'partially_refunded'].map((s) => Type.Literal(s))),
  paid: MoneyRef,
  due: MoneyRef,
});

const reservationFields = {
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
  }),
  specialRequests: Type.Union([Type.String(), Type.Null()]),
  lines: Type.Array(PriceLineRef),
  total: MoneyRef,
  includedTaxes: Type.Array(IncludedTax),
  cancellationPolicy: PolicyRef,
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
  version: Type.Integer({ description: 'also sent as the ETag; send it back in If-Match' }),
  createdAt: Instant,
  updatedAt: Instant,
};

export const Reservation = Type.Object(reservationFields, {
  $id: 'Reservation',
  description: 'The reservation; header ETag carries its version',
});
export type Reservation = Static<typeof Reservation>;

export const CreatedReservation = Type.Object(
  {
    ...reservationFields,
    accessToken: Type.String({
      description:
        'secret for PATCH and cancel (Authorization: Bearer …); returned only here, stored only hashed',
      examples: ['rat_…'],
    }),
  },
  { description: 'The reservation, with its access token (returned only here); headers ETag and Location' },
);
export type CreatedReservation = Static<typeof CreatedReservation>;
