import { type Static, Type } from '@sinclair/typebox';
import { PromotionCode } from '../catalog/promotion.schema.ts';
import { CalendarDate, MoneyRef } from '../infra/http/common-schemas.ts';
import { StorableString } from '../infra/http/text-schemas.ts';
import {
  AppliedPromotion,
  HotelDate,
  IncludedTax,
  Instant,
  PolicyRef,
  PriceLineRef,
  RatePlanSummary,
  RoomTypeRef,
  stayEchoFields,
} from '../reservations/reservation.schemas.ts';

/** Request and response schemas of search and quote (docs/api.md §2.1, §2.2): they validate, serialise, type and document. */

const CatalogId = StorableString({ minLength: 1, maxLength: 64 });

const stayFields = {
  hotelId: StorableString({
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
  promoCode: Type.Optional({
    ...PromotionCode,
    description:
      'a promotion code (docs/api.md §13.1): offers it applies to carry `promotion` and a `discount` line, and rate plans it unlocks are offered; one that does not hold is `422 promo_code_invalid`',
  }),
};

export const SearchRequest = Type.Object(stayFields, {
  additionalProperties: false,
  description:
    "Rules no schema can say (400 validation_error): `hotelId` must be a catalogue hotel; `checkOut` after `checkIn`; `checkIn` not before today (hotel-local); at most 365 nights; `adults` at least `rooms`; `services` the hotel's services.",
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
    roomTypeId: StorableString({ minLength: 1, maxLength: 64, examples: ['double'] }),
    ratePlanId: StorableString({ minLength: 1, maxLength: 64, examples: ['flex'] }),
  },
  {
    additionalProperties: false,
    description:
      "Rules no schema can say (400 validation_error): `hotelId` must be a catalogue hotel; `checkOut` after `checkIn`; `checkIn` not before today (hotel-local); at most 365 nights; `adults` at least `rooms`; `services` the hotel's services. `roomTypeId` and `ratePlanId` must be the hotel's, and the rate plan must sell the room type.",
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

const RestrictionDetails = {
  rule: Type.Optional(
    Type.Union(
      [
        'stop_sell',
        'closed_to_arrival',
        'closed_to_departure',
        'min_stay',
        'max_stay',
        'booking_window',
        'unpaid_stay',
      ].map((r) => Type.Literal(r)),
    ),
  ),
  message: Type.String(),
  minStay: Type.Optional(Type.Integer()),
  maxStay: Type.Optional(Type.Integer()),
  maxDaysBeforeArrival: Type.Optional(Type.Integer()),
  latestArrival: Type.Optional(HotelDate),
  maxUnpaidNights: Type.Optional(Type.Integer()),
  from: Type.Optional(HotelDate),
  to: Type.Optional(HotelDate),
  dates: Type.Optional(Type.Array(HotelDate)),
};

const Texts = Type.Record(Type.String(), Type.String(), { description: 'text by language code' });
/** What an occupancy-priced rate plan (docs/api.md §9.3) tells the guest: names, meals, the offers applied. */
const PlanDetails = Type.Optional(
  Type.Object(
    {
      names: Type.Optional(Texts),
      descriptions: Type.Optional(Texts),
      meals: Type.Optional(
        Type.Object({
          breakfast: Type.Optional(Type.Boolean()),
          lunch: Type.Optional(Type.Boolean()),
          dinner: Type.Optional(Type.Boolean()),
        }),
      ),
      freeNights: Type.Array(HotelDate, { description: "nights made free by the plan's free-nights offer" }),
      freeChildren: Type.Integer({ description: 'children staying free under the family offer, all rooms' }),
      supplements: Type.Array(
        Type.Object({ code: Type.String(), names: Type.Optional(Texts), descriptions: Type.Optional(Texts) }),
        {
          description:
            'the mandatory supplements in the price (their lines are `service` lines of this code)',
        },
      ),
      extras: Type.Optional(
        Type.Array(
          Type.Object({
            code: Type.String(),
            names: Type.Optional(Texts),
            descriptions: Type.Optional(Texts),
            amount: MoneyRef,
          }),
          {
            description:
              "the plan's optional supplements with a price for this stay, bookable by giving their `code` in `services` (priced as a `service` line of that code); `amount` is for this stay, all rooms",
          },
        ),
      ),
    },
    { description: 'present for a rate plan priced by occupancy (docs/api.md §9.3)' },
  ),
);

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
        plan: PlanDetails,
        promotion: Type.Optional(AppliedPromotion),
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
  {
    $id: 'SearchResult',
    description: 'Offers for the stay, and the room types that cannot be sold with the reason',
  },
);
export type SearchResponse = Static<typeof SearchResponse>;

/** One payment of a `deposit` plan's schedule as a quote foresees it (API.md 14.2; docs/api.md §13.2.2). */
const QuotedPayment = Type.Object(
  {
    kind: Type.Union([Type.Literal('deposit'), Type.Literal('balance')]),
    dueAt: Type.String({
      format: 'date-time',
      description: 'RFC 3339 UTC instant: now for the deposit; checkIn − balanceDueDays for the balance',
    }),
    amount: MoneyRef,
    collection: Type.Union([Type.Literal('card_on_file'), Type.Literal('at_hotel')], {
      description:
        '`card_on_file`: charged by the service when due; `at_hotel`: a balance paid at the hotel (`balanceDueDays` 0)',
    }),
  },
  { additionalProperties: false },
);

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
    plan: PlanDetails,
    promotion: Type.Optional(AppliedPromotion),
    schedule: Type.Optional(
      Type.Array(QuotedPayment, {
        description:
          'a `deposit` plan: what booking now takes (the deposit) and what the card on file pays later (the balance), as the reservation’s `payment.schedule` will say; absent for other plans',
      }),
    ),
  },
  { $id: 'Quote', description: 'The quote: a price locked until expiresAt (rooms are not held)' },
);
export type QuoteResponse = Static<typeof QuoteResponse>;
