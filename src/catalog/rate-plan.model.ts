import { type Static, Type } from '@sinclair/typebox';

/**
 * A rate plan priced as hotels price (docs/api.md §9.3, AlpineBits HotelData 2022-10 section 4.5): the
 * same shape whether it came from an `OTA_HotelRatePlanNotif:RatePlans` message or from the
 * catalogue file's `pricing` of a rate plan. Amounts are integer minor units of the hotel's
 * currency; dates are hotel-local `YYYY-MM-DD`, periods inclusive.
 */

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Amount = Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'minor units' });
const Count = (max: number) => Type.Integer({ minimum: 0, maximum: max });
const Nights = Type.Integer({ minimum: 0, maximum: 365 });
const Age = Type.Integer({ minimum: 0, maximum: 99 });

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const Weekday = Type.Union(WEEKDAYS.map((d) => Type.Literal(d)));
const Weekdays = Type.Array(Weekday, { maxItems: 7, uniqueItems: true });
export type Weekday = Static<typeof Weekday>;

/** Texts by language (`en`, `es`, `pt`, or any other the message carries), as catalogue `names` are. */
export const LocalizedText = Type.Record(
  Type.String({ pattern: '^[a-z]{2,3}$' }),
  Type.String({ minLength: 1 }),
);
export type LocalizedText = Static<typeof LocalizedText>;

export const RateDef = Type.Object({
  roomTypeId: Type.String({ minLength: 1 }),
  /** Absent: every date (a static rate). */
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  /** Rate Mon…Sun: the weekdays (of the night) it prices; absent: every day. */
  days: Type.Optional(Type.Array(Weekday, { minItems: 1, maxItems: 7, uniqueItems: true })),
  /** BaseByGuestAmt: the price by number of guests (per person or per room, see `per`). */
  byGuests: Type.Array(Type.Object({ guests: Type.Integer({ minimum: 1, maximum: 100 }), amount: Amount }), {
    minItems: 1,
  }),
  /** AdditionalGuestAmount for adults above the standard occupancy. */
  extraAdult: Type.Optional(Amount),
  /** AdditionalGuestAmount by age band: minAge <= age < maxAge. */
  children: Type.Optional(
    Type.Array(Type.Object({ minAge: Type.Optional(Age), maxAge: Type.Optional(Age), amount: Amount })),
  ),
});
export type RateDef = Static<typeof RateDef>;

export const BookingRuleDef = Type.Object({
  /** Absent: every room type of the plan. */
  roomTypeId: Type.Optional(Type.String({ minLength: 1 })),
  from: Day,
  to: Day,
  /** RestrictionStatus Master Close: no night of a stay may fall in the period. */
  closed: Type.Optional(Type.Boolean()),
  minStay: Type.Optional(Nights),
  maxStay: Type.Optional(Nights),
  /** SetForwardMinStay / SetForwardMaxStay: checked on every day of the stay, departure included. */
  forwardMinStay: Type.Optional(Nights),
  forwardMaxStay: Type.Optional(Nights),
  /** Days of week an arrival (departure) inside the period may fall on; absent: all. */
  arrivalDays: Type.Optional(Weekdays),
  departureDays: Type.Optional(Weekdays),
});
export type BookingRuleDef = Static<typeof BookingRuleDef>;

export const SUPPLEMENT_CHARGES = [
  'per_night',
  'per_stay',
  'per_room_per_night',
  'per_room_per_stay',
  'per_person_per_stay',
  'per_person_per_night',
  'per_item',
] as const;
export const SupplementDef = Type.Object({
  id: Type.String({ minLength: 1 }),
  charge: Type.Union(SUPPLEMENT_CHARGES.map((c) => Type.Literal(c))),
  /** Mandatory supplements are part of the total; optional ones are offered as extras. */
  mandatory: Type.Boolean(),
  /** Days of week (of the night) on which it is charged; absent: every day. */
  days: Type.Optional(Weekdays),
  prices: Type.Array(
    Type.Object({
      from: Day,
      to: Day,
      amount: Amount,
      /** Absent: every room type. */
      roomTypeId: Type.Optional(Type.String({ minLength: 1 })),
    }),
  ),
  names: Type.Optional(LocalizedText),
  descriptions: Type.Optional(LocalizedText),
});
export type SupplementDef = Static<typeof SupplementDef>;

/** The first Offer's OfferRule of a message: who may book and when. */
export const StayRulesDef = Type.Object({
  minStay: Type.Optional(Nights),
  maxStay: Type.Optional(Nights),
  arrivalDays: Type.Optional(Weekdays),
  departureDays: Type.Optional(Weekdays),
  /** Days between the booking date and the arrival. */
  minAdvanceDays: Type.Optional(Count(3650)),
  maxAdvanceDays: Type.Optional(Count(3650)),
  /** Guests of this age or older are adults; `null`: the plan takes no children. Default 18. */
  adultMinAge: Type.Optional(Type.Union([Age, Type.Null()])),
  minAdults: Type.Optional(Count(99)),
  maxAdults: Type.Optional(Count(99)),
  childMinAge: Type.Optional(Age),
  childMaxAge: Type.Optional(Age),
  minChildren: Type.Optional(Count(99)),
  maxChildren: Type.Optional(Count(99)),
});
export type StayRulesDef = Static<typeof StayRulesDef>;

export const PlanPricing = Type.Object({
  /** BaseByGuestAmt Type 7 (`person`: the amount is per guest) or 25 (`room`). */
  per: Type.Union([Type.Literal('person'), Type.Literal('room')]),
  /** UnitMultiplier: nights one rate amount pays for (a part of them costs its share). Default 1. */
  unitNights: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  meals: Type.Optional(
    Type.Object({
      breakfast: Type.Optional(Type.Boolean()),
      lunch: Type.Optional(Type.Boolean()),
      dinner: Type.Optional(Type.Boolean()),
    }),
  ),
  rates: Type.Array(RateDef),
  bookingRules: Type.Optional(Type.Array(BookingRuleDef)),
  supplements: Type.Optional(Type.Array(SupplementDef)),
  stayRules: Type.Optional(StayRulesDef),
  /** "7 for 6": of every `nightsRequired` nights the last `nightsDiscounted` are free (`repeat`), or only once, at the end. */
  freeNights: Type.Optional(
    Type.Object({
      nightsRequired: Type.Integer({ minimum: 1, maximum: 365 }),
      nightsDiscounted: Type.Integer({ minimum: 1, maximum: 365 }),
      repeat: Type.Optional(Type.Boolean()),
    }),
  ),
  /** Family offer: with at least `minChildren` children under `maxAge`, `freeChildren` of them stay free. */
  familyOffer: Type.Optional(
    Type.Object({
      maxAge: Type.Integer({ minimum: 1, maximum: 18 }),
      minChildren: Type.Integer({ minimum: 0, maximum: 99 }),
      freeChildren: Type.Integer({ minimum: 1, maximum: 99 }),
    }),
  ),
  names: Type.Optional(LocalizedText),
  descriptions: Type.Optional(LocalizedText),
  /**
   * AlpineBits RatePlanJoin (docs/api.md §9.3): the group (`RatePlanID`) and whether this plan is its
   * master. A derived plan keeps its own rates, rules, supplements and meals, and takes the master's
   * offers, names and descriptions.
   */
  join: Type.Optional(
    Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), master: Type.Boolean() }),
  ),
});
export type PlanPricing = Static<typeof PlanPricing>;

/** The room type's occupancy (catalogue): what the price of a stay depends on besides the plan. */
export type Occupancy = {
  minOccupancy: number;
  standardOccupancy: number;
  maxOccupancy: number;
  maxChildren: number | undefined;
};
