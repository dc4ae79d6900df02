import { type Static, Type } from '@sinclair/typebox';
import { NAME_PATTERN } from '../infra/http/text-schemas.ts';
import { CatalogName, type Named } from './localized-name.ts';
import { PromotionDef } from './promotion.schema.ts';
import { PlanPricing } from './rate-plan.model.ts';
import { type HotelSelling, hotelSelling, type RoomTypeSelling, roomTypeSelling } from './selling.schema.ts';

/**
 * The catalogue file (API.md section 6). Unknown properties are tolerated (and reported as
 * warnings by the loader) so a hotel can keep its own annotations in the file; every known
 * property is checked strictly.
 */

/**
 * A catalogue type as loaded: its `name` (a string or names by language in the file) becomes the
 * plain `name` and, when given, `names` by language (`localized-name.ts`). Distributes over unions.
 */
type Loaded<T> = T extends { name: unknown } ? Omit<T, 'name'> & Named : never;

const Id = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$', description: 'catalogue id' });
/**
 * The ends of a season or restriction: a hotel-local date, or an ISO 8601 recurring month-day
 * `--MM-DD` for a period that comes back every year (`recurrence.ts`). The format is registered by
 * the catalogue's validation (`validate/schema-problems.ts`).
 */
export const PERIOD_DATE_FORMAT = 'catalog-period-date';
const PeriodDate = Type.String({
  format: PERIOD_DATE_FORMAT,
  description: 'YYYY-MM-DD, or --MM-DD for every year',
  errorMessage: {
    format:
      'must be a calendar date YYYY-MM-DD, or a month-day --MM-DD for every year (--02-29: leap years only)',
  },
});
/** One e-mail address: none of RFC 5322's specials but the dot, no white space or control character. */
const HOTEL_EMAIL_PATTERN =
  '^[^\\s\\u0000-\\u001F\\u007F@<>()\\[\\]\\\\,;:"]+@[^\\s\\u0000-\\u001F\\u007F@<>()\\[\\]\\\\,;:"]+$';
const LocalTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM' });
const MinorUnits = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });

export const RoomTypeDef = Type.Object({
  id: Id,
  name: CatalogName,
  count: Type.Integer({ minimum: 0, maximum: 100_000 }),
  maxAdults: Type.Integer({ minimum: 1, maximum: 100 }),
  maxChildren: Type.Integer({ minimum: 0, maximum: 100 }),
  maxOccupancy: Type.Integer({ minimum: 1, maximum: 200 }),
  /** Fewest guests a room is sold to under an occupancy-priced plan (docs/api.md §9.3). Default 1. */
  minOccupancy: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  /** Guests the base price of an occupancy-priced plan is for (docs/api.md §9.3). Default `maxAdults`. */
  standardOccupancy: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  /** The rooms' own numbers, when the hotel lists them: arrivals may only be given these (API.md 7.5). */
  roomNumbers: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 20, pattern: NAME_PATTERN }), { maxItems: 100_000 }),
  ),
  ...roomTypeSelling,
});
export type RoomTypeDef = Loaded<Omit<Static<typeof RoomTypeDef>, keyof RoomTypeSelling>> & RoomTypeSelling;

export const RoomPrice = Type.Object({
  base: MinorUnits,
  includedAdults: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  extraAdult: Type.Optional(MinorUnits),
  child: Type.Optional(MinorUnits),
});
export type RoomPrice = Static<typeof RoomPrice>;

export const SeasonDef = Type.Object({
  from: PeriodDate,
  to: PeriodDate,
  prices: Type.Record(Type.String(), Type.Partial(RoomPrice)),
});
export type SeasonDef = Static<typeof SeasonDef>;

export const Prepayment = Type.Union([Type.Literal('none'), Type.Literal('full'), Type.Literal('deposit')]);
export type Prepayment = Static<typeof Prepayment>;

export const RatePlanDef = Type.Object({
  id: Id,
  name: CatalogName,
  refundable: Type.Boolean(),
  prepayment: Prepayment,
  /**
   * What a `deposit` plan takes at booking (API.md 14.2): a percent of the total, or the first n
   * nights; required with `prepayment: "deposit"`, refused otherwise.
   */
  deposit: Type.Optional(
    Type.Object({
      percent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      nights: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
    }),
  ),
  /** Days before check-in the balance of a `deposit` plan is charged to the card on file; 0 (default) = paid at the hotel. */
  balanceDueDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
  /** Days before check-in (hotel-local midnight) until which cancellation is free. Default 0. */
  freeCancellationDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  /** Nights charged as a penalty after the free-cancellation deadline. Default 1. */
  penaltyNights: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
  /** Required unless `pricing` prices the plan. */
  prices: Type.Optional(Type.Record(Type.String(), RoomPrice)),
  seasons: Type.Optional(Type.Array(SeasonDef)),
  /** Priced as hotels price (docs/api.md §9.3): by occupancy, children's ages, length of stay, supplements and offers; replaces `prices`. */
  pricing: Type.Optional(PlanPricing),
  /** Offered only with a promotion code that unlocks it (API.md 14.1). Default false. */
  hidden: Type.Optional(Type.Boolean()),
});
export type RatePlanDef = Loaded<Static<typeof RatePlanDef>>;

export const ServicePricing = Type.Union([
  Type.Literal('per_stay'),
  Type.Literal('per_night'),
  Type.Literal('per_room_per_night'),
  Type.Literal('per_guest_per_night'),
]);
export type ServicePricing = Static<typeof ServicePricing>;

export const ServiceDef = Type.Object({
  id: Id,
  name: CatalogName,
  pricing: ServicePricing,
  amount: MinorUnits,
});
export type ServiceDef = Loaded<Static<typeof ServiceDef>>;

export const TaxDef = Type.Union([
  Type.Object({
    code: Id,
    name: CatalogName,
    type: Type.Union([Type.Literal('per_adult_per_night'), Type.Literal('per_stay')]),
    amount: MinorUnits,
  }),
  Type.Object({
    code: Id,
    name: CatalogName,
    type: Type.Literal('percent_included'),
    rate: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
  }),
]);
export type TaxDef = Loaded<Static<typeof TaxDef>>;

export const RestrictionDef = Type.Object({
  from: PeriodDate,
  to: PeriodDate,
  roomTypes: Type.Optional(Type.Array(Id)),
  ratePlans: Type.Optional(Type.Array(Id)),
  stopSell: Type.Optional(Type.Boolean()),
  closedToArrival: Type.Optional(Type.Boolean()),
  closedToDeparture: Type.Optional(Type.Boolean()),
  minStay: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  maxStay: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
});
export type RestrictionDef = Static<typeof RestrictionDef>;

/** A short invoice series: letters and digits, the number's prefix (`F2027-000001`). */
const Series = Type.String({
  pattern: '^[A-Z0-9]{1,10}$',
  description: 'invoice series: 1-10 capital letters or digits',
});
const LegalText = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', description });

/** The hotel's legal details for invoices (API.md 13); without them it does not invoice. */
export const LegalDef = Type.Object({
  name: LegalText(200, 'the legal name of the business that invoices'),
  taxId: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9.-]{0,29}$',
    description: 'tax id (Spain: NIF), letters, digits, dots or dashes',
  }),
  address: LegalText(500, 'the postal address printed on invoices'),
  country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
  invoiceSeries: Type.Optional(Series),
  creditNoteSeries: Type.Optional(Series),
  verifactu: Type.Optional(Type.Boolean({ description: 'chain each invoice as VERI*FACTU requires' })),
});
export type LegalDef = Static<typeof LegalDef>;
/** `legal` after loading: series and VERI*FACTU filled in. */
export type Legal = Required<LegalDef>;

/** The longest unpaid stay when the hotel sets none (API.md 6), as `maxUnpaidNights` below says. */
export const DEFAULT_MAX_UNPAID_NIGHTS = 30;

export const HotelDef = Type.Object({
  id: Id,
  name: CatalogName,
  timezone: Type.String({ minLength: 1, description: 'IANA time zone, e.g. Europe/Lisbon' }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' }),
  checkInTime: Type.Optional(LocalTime),
  checkOutTime: Type.Optional(LocalTime),
  maxDaysBeforeArrival: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  maxUnpaidNights: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 365,
      description:
        'the longest stay, in nights, a rate plan that takes no payment at booking may sell (default 30; 365: no limit)',
    }),
  ),
  email: Type.Optional(
    Type.String({
      // One address: no list separator (`,` `;`), quote, bracket, comment or white space, which
      // would make the Reply-To of every guest message a second, unchecked recipient.
      pattern: HOTEL_EMAIL_PATTERN,
      maxLength: 254,
      description: 'Reply-To of the guest messages (API.md 10): one address, local@domain',
      errorMessage: {
        pattern: 'must be one e-mail address (local@domain), not a list nor a name with an address',
      },
    }),
  ),
  checkinInviteDays: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 365,
      description: 'days before check-in the check-in invitation goes out; overrides CHECKIN_INVITE_DAYS',
    }),
  ),
  ...hotelSelling,
  roomTypes: Type.Array(RoomTypeDef),
  ratePlans: Type.Array(RatePlanDef),
  services: Type.Optional(Type.Array(ServiceDef)),
  taxes: Type.Optional(Type.Array(TaxDef)),
  restrictions: Type.Optional(Type.Array(RestrictionDef)),
  legal: Type.Optional(LegalDef),
  /** Promotion codes (API.md 14.1); the operator API's saved codes win over these. */
  promotions: Type.Optional(Type.Array(PromotionDef, { maxItems: 10_000 })),
});
export type HotelDef = Static<typeof HotelDef>;

export const CatalogFile = Type.Object({ hotels: Type.Array(HotelDef, { minItems: 1 }) });
export type CatalogFile = Static<typeof CatalogFile>;

/**
 * A hotel after loading: defaults applied, so the rules never deal with absent fields.
 * Pure booking rules take this shape. As parsed and stored, its seasons and restrictions may be
 * yearly (`--MM-DD`); the catalogue store hands it out with those expanded into dated periods
 * (`expandYearlyPeriods` in `recurrence.ts`), the only form the per-night rules are given.
 */
export interface Hotel extends HotelSelling {
  id: string;
  name: string;
  names?: Named['names'];
  timezone: string;
  currency: string;
  checkInTime: string;
  checkOutTime: string;
  maxDaysBeforeArrival: number | null;
  /** The longest stay a rate plan without payment at booking sells (API.md 6); absent = 30. */
  maxUnpaidNights?: number;
  /** Reply-To of the guest messages; absent = none. */
  email?: string;
  /** The hotel's own CHECKIN_INVITE_DAYS; absent = the service's. */
  checkinInviteDays?: number;
  roomTypes: RoomTypeDef[];
  ratePlans: Array<
    Omit<RatePlanDef, 'freeCancellationDays' | 'penaltyNights' | 'seasons' | 'prices'> & {
      prices: Record<string, RoomPrice>;
      freeCancellationDays: number;
      penaltyNights: number;
      seasons: SeasonDef[];
    }
  >;
  services: ServiceDef[];
  taxes: TaxDef[];
  restrictions: RestrictionDef[];
  /** The legal details invoices carry; absent = the hotel does not invoice. */
  legal?: Legal;
  /** The catalogue's promotion codes, codes upper-cased (API.md 14.1). */
  promotions?: PromotionDef[];
}
export type RatePlan = Hotel['ratePlans'][number];
