import { type Static, Type } from '@sinclair/typebox';
import { CalendarDate } from '../infra/http/common-schemas.ts';
import { Name } from '../infra/http/text-schemas.ts';

/**
 * A promotion code (API.md 14.1), as the catalogue's `promotions` and the operator API's
 * `PUT /operator/hotels/{hotel}/promotions/{code}` both give it: one schema for both.
 */

/** 3–32 letters, digits or `-`; matched without regard to case (stored upper-cased). */
export const PROMOTION_CODE_PATTERN = '^[A-Za-z0-9-]{3,32}$';
export const PromotionCode = Type.String({
  pattern: PROMOTION_CODE_PATTERN,
  description: 'a promotion code: 3–32 letters, digits or "-", matched without regard to case',
  examples: ['SPRING-25'],
});

const PlanOrRoomId = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' });

export const PromotionDiscount = Type.Union(
  [
    Type.Object(
      {
        percent: Type.Integer({
          minimum: 1,
          maximum: 100,
          description: 'percent off the room lines, rounded half up to the minor unit',
        }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        amountPerNight: Type.Integer({
          minimum: 1,
          maximum: 1_000_000_000,
          description: 'minor units off per room and night (never more than the room lines)',
        }),
      },
      { additionalProperties: false },
    ),
  ],
  {
    description: '{ "percent": 1–100 } or { "amountPerNight": a positive integer of minor units }',
  },
);
export type PromotionDiscount = Static<typeof PromotionDiscount>;

/** The fields of a promotion besides its code. */
export const promotionFields = {
  name: Name({ maxLength: 200, description: 'what the guest sees: "Spring offer"' }),
  discount: Type.Optional(PromotionDiscount),
  ratePlans: Type.Optional(
    Type.Array(PlanOrRoomId, { maxItems: 200, description: 'the rate plans it applies to (default all)' }),
  ),
  roomTypes: Type.Optional(
    Type.Array(PlanOrRoomId, { maxItems: 200, description: 'the room types it applies to (default all)' }),
  ),
  unlocksRatePlans: Type.Optional(
    Type.Array(PlanOrRoomId, {
      maxItems: 200,
      description: 'hidden rate plans (`"hidden": true`) this code offers',
    }),
  ),
  bookFrom: Type.Optional(CalendarDate('first hotel-local date it can be booked on')),
  bookTo: Type.Optional(CalendarDate('last hotel-local date it can be booked on (inclusive)')),
  stayFrom: Type.Optional(CalendarDate('first night of a stay it applies to')),
  stayTo: Type.Optional(CalendarDate('last night of a stay it applies to (every night within)')),
  minNights: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  maxUses: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000_000,
      description: 'confirmed reservations that may hold it',
    }),
  ),
  maxUsesPerGuest: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000_000,
      description: 'confirmed reservations one guest e-mail may hold it on',
    }),
  ),
};

export const PromotionDef = Type.Object({ code: PromotionCode, ...promotionFields });
export type PromotionDef = Static<typeof PromotionDef>;

/** A promotion as the rules use it: its code upper-cased. */
export type Promotion = PromotionDef;

/** The one way a code is compared: upper-cased. */
export function normalCode(code: string): string {
  return code.toUpperCase();
}
