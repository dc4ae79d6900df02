import type { Exact } from './exact-arithmetic.ts';

/** Thousandths of the major unit in one minor unit, by the currency's minor digits (0–3). */
const THOUSANDTHS_PER_MINOR_UNIT = [1000, 100, 10, 1];

/**
 * rtapp's rounding of a stay's cost (HotelData 4.5 leaves it open; the Alliance's rtapp is the
 * reference): each part (the rates, the supplements) rounded to three decimals of the currency's
 * major unit, their sum to two, given here in the currency's minor units (`minorDigits`, 2 for
 * EUR; a currency without minor units rounds once more to whole units). `parts` are exact
 * amounts in minor units as numerators over `denominator`, in the arithmetic `x`. rtapp computes
 * in binary floating point, so on an exact tie (…5 at the third decimal) it may round down where
 * this rounds up.
 */
export function rtappRound<T>(x: Exact<T>, parts: readonly T[], denominator: T, minorDigits = 2): number {
  const digits = Math.min(Math.max(minorDigits, 0), 3);
  const toThousandths = x.of(THOUSANDTHS_PER_MINOR_UNIT[digits] as number);
  let thousandths = x.zero;
  for (const part of parts)
    thousandths = x.add(thousandths, x.roundHalfUp(x.mul(part, toThousandths), denominator));
  const hundredths = x.roundHalfUp(thousandths, x.of(10));
  if (digits === 3) return x.toNumber(x.mul(hundredths, x.of(10)));
  if (digits === 2) return x.toNumber(hundredths);
  return x.toNumber(x.roundHalfUp(hundredths, x.of(digits === 1 ? 10 : 100)));
}
