/**
 * A write that another statement can carry as a data-modifying CTE, so that writes a command makes
 * together (an event and its audit entry) cost one round trip: its SQL numbers its parameters from
 * `$1`; the statement carrying it renumbers them after its own. Each table's repository still
 * writes its own SQL; the carrier only places it.
 */
export interface WritePart {
  sql: string;
  values: readonly unknown[];
}

/**
 * `parts` as CTEs named `w0`, `w1`, … of a statement whose own parameters are `$1`…`$offset`: the
 * `WITH` list's entries (to join with the statement's own) and the parameters to append. A
 * data-modifying CTE runs once whether or not the statement reads it.
 */
export function carriedParts(
  parts: readonly WritePart[],
  offset: number,
): { ctes: string[]; values: unknown[] } {
  const ctes: string[] = [];
  const values: unknown[] = [];
  for (const [i, part] of parts.entries()) {
    const shift = offset + values.length;
    ctes.push(`w${i} AS (${part.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`)})`);
    values.push(...part.values);
  }
  return { ctes, values };
}
