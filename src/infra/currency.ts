/**
 * The one answer to "how many digits has this currency's minor unit" (ISO 4217, as the runtime's
 * Intl data knows it; 2 for a code it does not know). Every amount in Innkeep is an integer of
 * minor units, so pricing, rounding, payments, messages and the channels' decimals all ask this.
 */
/** An amount in integer minor units (cents) of an ISO 4217 currency: money is never a float. */
export type Money = { amount: number; currency: string };

const digits = new Map<string, number>();

export function minorDigits(currency: string): number {
  let known = digits.get(currency);
  if (known === undefined) {
    try {
      known =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
          .maximumFractionDigits ?? 2;
    } catch {
      known = 2;
    }
    digits.set(currency, known);
  }
  return known;
}
