import { isMonthDay } from '../recurrence.ts';

/**
 * A period's two ends share one form: both dates (`to` not before `from`), or both month-days of a
 * yearly period, where `to` before `from` is allowed and means the period wraps the year end.
 * Each end is already known to be one of the two forms (the schema checks that).
 */
export function periodProblems(p: { from: string; to: string }, at: string): string[] {
  const yearly = isMonthDay(p.from);
  if (yearly !== isMonthDay(p.to)) {
    return [
      yearly
        ? `${at}/to: must be a month-day --MM-DD like from (${p.from}): a yearly period has no year`
        : `${at}/to: must be a calendar date YYYY-MM-DD like from (${p.from}), or both ends month-days --MM-DD for every year`,
    ];
  }
  return !yearly && p.from > p.to ? [`${at}/to: must not be before from (${p.from})`] : [];
}
