import type { RatePlanDef } from '../catalog.schema.ts';
import { pointerKey } from './paths.ts';
import { periodProblems } from './periods.ts';
import { pricingProblems } from './pricing-problems.ts';
import { unknownIds } from './references.ts';

/** A rate plan's prices and seasons name only the hotel's room types; seasons run forwards. */
export function ratePlanProblems(
  ratePlan: Pick<RatePlanDef, 'prices' | 'seasons' | 'pricing'>,
  roomTypeIds: Set<string>,
  at: string,
  warnings: string[],
): string[] {
  if (ratePlan.prices === undefined && ratePlan.pricing === undefined)
    return [`${at}: a rate plan needs "prices" or "pricing"`];
  const prices = ratePlan.prices ?? {};
  if (ratePlan.pricing && Object.keys(prices).length > 0)
    warnings.push(`${at}/prices: the plan is priced by "pricing", its "prices" are ignored`);
  const priced = Object.keys(prices);
  const problems = unknownIds(priced, roomTypeIds, (id) => `${at}/prices/${pointerKey(id)}`, 'room type');
  if (ratePlan.pricing) problems.push(...pricingProblems(ratePlan.pricing, roomTypeIds, `${at}/pricing`));
  (ratePlan.seasons ?? []).forEach((season, s) => {
    const seasonAt = `${at}/seasons/${s}`;
    problems.push(...periodProblems(season, seasonAt));
    for (const roomTypeId of Object.keys(season.prices)) {
      const priceAt = `${seasonAt}/prices/${pointerKey(roomTypeId)}`;
      if (!roomTypeIds.has(roomTypeId)) {
        problems.push(`${priceAt}: unknown room type ${JSON.stringify(roomTypeId)}`);
      } else if (!Object.hasOwn(prices, roomTypeId)) {
        // The plan does not sell this room type, so a seasonal price for it can never apply.
        warnings.push(`${priceAt}: room type not priced by this rate plan, ignored`);
      }
    }
  });
  return problems;
}
