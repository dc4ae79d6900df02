/** A period's `to` may not come before its `from`. */
export function periodProblems(p: { from: string; to: string }, at: string): string[] {
  return p.from > p.to ? [`${at}/to: must not be before from (${p.from})`] : [];
}
