/** References between catalogue ids: each id once, each reference to a known id. */

/** One problem for each id listed again after its first appearance. */
export function duplicates(ids: string[], path: (i: number) => string, what: string): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  ids.forEach((id, i) => {
    if (seen.has(id)) problems.push(`${path(i)}: duplicate ${what} ${JSON.stringify(id)}`);
    seen.add(id);
  });
  return problems;
}

/** One problem for each id that names nothing in `known`. */
export function unknownIds(
  ids: string[] | undefined,
  known: Set<string>,
  path: (id: string, i: number) => string,
  what: string,
): string[] {
  return (ids ?? []).flatMap((id, i) =>
    known.has(id) ? [] : [`${path(id, i)}: unknown ${what} ${JSON.stringify(id)}`],
  );
}
