import { type Static, Type } from '@sinclair/typebox';
import { PromotionCode } from '../catalog/promotion.schema.ts';
import { EMAIL_PATTERN, FreeText, Name, StorableString } from '../infra/http/text-schemas.ts';
import { GuestLanguage, HotelDate } from '../reservations/reservation.schemas.ts';

/** Request bodies of the reservation commands, for the guest (API.md 2.3–2.5) and the hotel (7.2, 7.5). */

const CatalogId = StorableString({ minLength: 1, maxLength: 64 });

const GuestName = Name({ maxLength: 100 });
const Email = Type.String({
  format: 'email',
  pattern: EMAIL_PATTERN,
  maxLength: 254,
  examples: ['ana@example.com'],
});
const Phone = Type.String({ pattern: '^\\+?[0-9 ()./-]{5,30}$', examples: ['+351912345678'] });

export const Guest = Type.Object(
  {
    firstName: GuestName,
    lastName: GuestName,
    email: Email,
    phone: Type.Optional(Phone),
    language: Type.Optional(GuestLanguage),
  },
  { additionalProperties: false },
);
export type Guest = Static<typeof Guest>;

const PaymentInput = Type.Object(
  {
    token: StorableString({
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
    quoteId: StorableString({ minLength: 1, maxLength: 100, examples: ['q_…'] }),
    guest: Guest,
    specialRequests: Type.Optional(FreeText({ maxLength: 2000, examples: ['late arrival'] })),
    payment: Type.Optional(PaymentInput),
  },
  {
    additionalProperties: false,
    description:
      'Rules no schema can say: `quoteId` must be a quote answered by `POST /booking/quote` (else 400 validation_error), not expired (410 quote_expired) and not yet booked (409 quote_already_used); `payment` is required when the rate plan prepays (402 payment_required).',
  },
);
export type ReservationRequest = Static<typeof ReservationRequest>;

const modifyFields = {
  checkIn: Type.Optional(HotelDate),
  checkOut: Type.Optional(HotelDate),
  adults: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  children: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 17 }), { maxItems: 50 })),
  rooms: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
  services: Type.Optional(Type.Array(CatalogId, { maxItems: 50 })),
  roomTypeId: Type.Optional(CatalogId),
  ratePlanId: Type.Optional(CatalogId),
  guest: Type.Optional(
    Type.Object(
      {
        firstName: Type.Optional(GuestName),
        lastName: Type.Optional(GuestName),
        email: Type.Optional(Email),
        phone: Type.Optional(Type.Union([Phone, Type.Null()])),
        language: Type.Optional(GuestLanguage),
      },
      {
        additionalProperties: false,
        description: 'partial: only the given fields change; phone null removes it',
      },
    ),
  ),
  specialRequests: Type.Optional(Type.Union([FreeText({ maxLength: 2000 }), Type.Null()])),
  promoCode: Type.Optional(
    Type.Union([PromotionCode, Type.Null()], {
      description:
        'a promotion code for the stay (docs/api.md §13.1): another code replaces the one held (its use given back), `null` drops it; absent keeps it. Re-prices the stay as a stay change does',
    }),
  ),
  payment: Type.Optional(PaymentInput),
};

export const ModifyRequest = Type.Object(modifyFields, {
  additionalProperties: false,
  description:
    'Rules no schema can say (400 validation_error): the stay as changed keeps `checkOut` after `checkIn`, at most 365 nights, `adults` at least `rooms`; `roomTypeId`, `ratePlanId` and `services` must be the hotel’s.',
  minProperties: 1,
  examples: [{ checkOut: '2027-03-05' }],
});
export type ModifyRequest = Static<typeof ModifyRequest>;

const Reason = FreeText({ maxLength: 500, examples: ['change of plans'] });

export const CancelRequest = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });
export type CancelRequest = Static<typeof CancelRequest>;

const WaiveFee = Type.Boolean({ description: 'true: no cancellation fee (the hotel’s decision)' });

/** PATCH by the hotel (API.md 7.2): the guest's body, plus `force` and `internalNotes`. */
export const OperatorModifyRequest = Type.Object(
  {
    ...modifyFields,
    force: Type.Optional(
      Type.Boolean({
        description: 'true: change the stay even when the rate plan forbids it (non-refundable)',
      }),
    ),
    internalNotes: Type.Optional(
      Type.Union([FreeText({ maxLength: 5000 }), Type.Null()], {
        description: 'the hotel’s own notes, never shown to the guest; null clears them',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ checkOut: '2027-03-05', force: true, internalNotes: 'extension agreed by phone' }],
  },
);
export type OperatorModifyRequest = Static<typeof OperatorModifyRequest>;

export const OperatorCancelRequest = Type.Object(
  { reason: Type.Optional(Reason), waiveFee: Type.Optional(WaiveFee) },
  { additionalProperties: false, examples: [{ reason: 'flight cancelled', waiveFee: true }] },
);
export type OperatorCancelRequest = Static<typeof OperatorCancelRequest>;

export const ArriveRequest = Type.Object(
  {
    roomNumbers: Type.Optional(
      Type.Array(Name({ maxLength: 20 }), {
        maxItems: 20,
        uniqueItems: true,
        description: 'the rooms given, at most the reservation’s `rooms`',
        examples: [['204']],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ArriveRequest = Static<typeof ArriveRequest>;

export const DepartRequest = Type.Object({}, { additionalProperties: false });

export const NoShowRequest = Type.Object(
  { waiveFee: Type.Optional(WaiveFee) },
  { additionalProperties: false },
);
export type NoShowRequest = Static<typeof NoShowRequest>;

export const ReservationParams = Type.Object({
  reservation: Type.String({
    minLength: 1,
    maxLength: 32,
    description: 'confirmation code',
    examples: ['R7K3M9Q2X'],
  }),
});

/** Headers of the reservation routes (token, If-Match); a write's `Idempotency-Key` comes with `writeSchema`. */
export const AuthHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Bearer rat_… (the reservation access token)' })),
  'if-match': Type.Optional(
    Type.String({ description: 'ETag of the version you read; a stale one answers 412' }),
  ),
});
