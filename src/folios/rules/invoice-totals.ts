/**
 * An invoice's sums (API.md 13), pure: the VAT included in its lines per rate, worked out as in
 * API.md 6.2 (round(sum × rate / (100 + rate)), half away from zero), and its number.
 */

export interface VatEntry {
  vatRate: number;
  base: number;
  amount: number;
}

/** Rates are percentages with at most two decimals (10, 21, 5.5): computed in hundredths, exactly. */
function includedVat(sum: number, rate: number): number {
  const r = BigInt(Math.round(rate * 100));
  const s = BigInt(Math.abs(sum));
  const denominator = 10_000n + r;
  const vat = Number((2n * s * r + denominator) / (2n * denominator));
  return sum < 0 ? -vat : vat;
}

/** One entry per VAT rate, by rate; lines outside VAT (`vatRate` null) have none. */
export function vatBreakdown(lines: readonly { amount: number; vatRate: number | null }[]): VatEntry[] {
  const sums = new Map<number, number>();
  for (const line of lines) {
    if (line.vatRate === null) continue;
    sums.set(line.vatRate, (sums.get(line.vatRate) ?? 0) + line.amount);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => a - b)
    .map(([vatRate, sum]) => {
      const amount = includedVat(sum, vatRate);
      return { vatRate, base: sum - amount, amount };
    });
}

/** `F2027-000001`: series, the issue date's year, `-`, the sequence on six digits (more past 999999). */
export function invoiceNumber(series: string, year: number, sequence: number): string {
  return `${series}${year}-${String(sequence).padStart(6, '0')}`;
}
