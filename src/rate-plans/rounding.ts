/** n / d rounded half up (n, d ≥ 0). */
function roundHalfUp(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}

/**
 * rtapp's rounding of a stay's cost (HotelData 4.5 leaves it open; the Alliance's rtapp is the
 * reference): each part (the rates, the supplements) rounded to three decimals of the currency's
 * major unit, their sum to two, given here in the currency's minor units (`minorDigits`, 2 for
 * EUR; a currency without minor units rounds once more to whole units). `parts` are exact
 * amounts in minor units as numerators over `denominator`. rtapp computes in binary floating
 * point, so on an exact tie (…5 at the third decimal) it may round down where this rounds up.
 */
export function rtappRound(parts: readonly bigint[], denominator: bigint, minorDigits = 2): number {
  const digits = Math.min(Math.max(minorDigits, 0), 3);
  const toThousandths = 10n ** BigInt(3 - digits);
  let thousandths = 0n;
  for (const part of parts) thousandths += roundHalfUp(part * toThousandths, denominator);
  const hundredths = roundHalfUp(thousandths, 10n);
  if (digits === 3) return Number(hundredths * 10n);
  if (digits === 2) return Number(hundredths);
  return Number(roundHalfUp(hundredths, 10n ** BigInt(2 - digits)));
}
