import { normalCode, type PromotionDef } from '../promotion.schema.ts';

/** A fault of a promotion the schema cannot see, `path` relative to the promotion (`/bookTo`). */
export type PromotionProblem = { path: string; message: string };

/** What a promotion is checked against: the hotel's ids, and which rate plans are hidden. */
export type PromotionHotel = {
  roomTypes: Array<{ id: string }>;
  ratePlans: Array<{ id: string; hidden?: boolean | undefined }>;
};

/**
 * Promotion rule (API.md 14.1): references name the hotel's room types and rate plans, periods do
 * not end before they begin, and a code does something (a discount, or plans it unlocks). Shared
 * by the catalogue's validation and the operator's `PUT …/promotions/{code}`.
 */
export function promotionProblems(
  promotion: Omit<PromotionDef, 'code'>,
  hotel: PromotionHotel,
): PromotionProblem[] {
  const problems: PromotionProblem[] = [];
  const roomTypeIds = new Set(hotel.roomTypes.map((r) => r.id));
  const ratePlanIds = new Set(hotel.ratePlans.map((p) => p.id));
  const unknown = (ids: string[] | undefined, known: Set<string>, field: string, what: string) => {
    (ids ?? []).forEach((id, i) => {
      if (!known.has(id))
        problems.push({ path: `/${field}/${i}`, message: `unknown ${what} ${JSON.stringify(id)}` });
    });
  };
  unknown(promotion.ratePlans, ratePlanIds, 'ratePlans', 'rate plan');
  unknown(promotion.roomTypes, roomTypeIds, 'roomTypes', 'room type');
  unknown(promotion.unlocksRatePlans, ratePlanIds, 'unlocksRatePlans', 'rate plan');
  if (promotion.bookFrom && promotion.bookTo && promotion.bookTo < promotion.bookFrom)
    problems.push({ path: '/bookTo', message: 'must not be before bookFrom' });
  if (promotion.stayFrom && promotion.stayTo && promotion.stayTo < promotion.stayFrom)
    problems.push({ path: '/stayTo', message: 'must not be before stayFrom' });
  if (!promotion.discount && (promotion.unlocksRatePlans ?? []).length === 0)
    problems.push({ path: '/discount', message: 'a code needs a discount or rate plans it unlocks' });
  if (
    promotion.maxUses !== undefined &&
    promotion.maxUsesPerGuest !== undefined &&
    promotion.maxUsesPerGuest > promotion.maxUses
  )
    problems.push({ path: '/maxUsesPerGuest', message: 'must not be above maxUses' });
  return problems;
}

/**
 * Hidden rule (API.md 14.1): a hidden rate plan is offered only with a code that unlocks it, so a
 * hidden plan no code unlocks could never be sold. Returns the hidden plans' ids no code unlocks.
 */
export function lockedOutPlans(
  hotel: PromotionHotel,
  promotions: Array<Pick<PromotionDef, 'unlocksRatePlans'>>,
): string[] {
  const unlocked = new Set(promotions.flatMap((p) => p.unlocksRatePlans ?? []));
  return hotel.ratePlans.filter((p) => p.hidden === true && !unlocked.has(p.id)).map((p) => p.id);
}

/** Each code once, compared without regard to case. */
export function duplicateCodes(codes: string[]): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  codes.forEach((code, i) => {
    const key = normalCode(code);
    if (seen.has(key)) repeated.push(i);
    seen.add(key);
  });
  return repeated;
}
