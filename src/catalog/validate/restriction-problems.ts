import type { RestrictionDef } from '../catalog.schema.ts';
import { periodProblems } from './periods.ts';
import { unknownIds } from './references.ts';

/** A restriction names only the hotel's room types and rate plans, runs forwards, and min ≤ max stay. */
export function restrictionProblems(
  restriction: RestrictionDef,
  roomTypeIds: Set<string>,
  ratePlanIds: Set<string>,
  at: string,
): string[] {
  const problems = [
    ...periodProblems(restriction, at),
    ...unknownIds(restriction.roomTypes, roomTypeIds, (_, i) => `${at}/roomTypes/${i}`, 'room type'),
    ...unknownIds(restriction.ratePlans, ratePlanIds, (_, i) => `${at}/ratePlans/${i}`, 'rate plan'),
  ];
  const { minStay, maxStay } = restriction;
  if (minStay !== undefined && maxStay !== undefined && minStay > maxStay) {
    problems.push(`${at}/maxStay: must be >= minStay (${minStay})`);
  }
  return problems;
}
