import { minorDigits } from '../infra/currency.ts';

/**
 * Our money is in ISO 4217 minor units (JPY 0 decimals, EUR 2, KWD 3); Stripe's `amount` is in its
 * own "smallest unit", which differs for a few currencies (docs.stripe.com/currencies):
 * zero-decimal ones are whole units in both; ISK is zero-decimal in ISO 4217 but Stripe takes it
 * with two decimals (×100); the three-decimal ones match, but Stripe charges them only in
 * multiples of 10.
 */
const STRIPE_ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const STRIPE_THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

function stripeDecimals(currency: string): number {
  if (STRIPE_ZERO_DECIMAL.has(currency)) return 0;
  if (STRIPE_THREE_DECIMAL.has(currency)) return 3;
  return 2;
}

/**
 * Our minor units → Stripe's `amount`; null when Stripe cannot charge that exact amount
 * (a three-decimal currency not in tens, which would need rounding the guest was not shown).
 */
export function toStripeAmount(amount: number, currency: string): number | null {
  const code = currency.toUpperCase();
  const shift = stripeDecimals(code) - minorDigits(code);
  if (shift >= 0) {
    const stripe = amount * 10 ** shift;
    if (STRIPE_THREE_DECIMAL.has(code) && stripe % 10 !== 0) return null;
    return stripe;
  }
  const factor = 10 ** -shift;
  return amount % factor === 0 ? amount / factor : null;
}

/** Stripe's `amount` → our minor units (exact: Stripe's unit is never coarser than ours here). */
export function fromStripeAmount(amount: number, currency: string): number {
  const code = currency.toUpperCase();
  const shift = stripeDecimals(code) - minorDigits(code);
  return shift >= 0 ? Math.round(amount / 10 ** shift) : amount * 10 ** -shift;
}
