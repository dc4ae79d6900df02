import type { TaxDef } from '../../catalog/catalog.schema.ts';

/**
 * The tax included in `taxable` at `rate` percent: round(taxable × rate / (100 + rate)), half up.
 * Worked in exact integers (the rate scaled to a whole number) so binary floating point can never
 * turn an exact .5 into .4999… and round it the wrong way.
 */
export function includedTaxAmount(taxable: number, rate: number): number {
  const [numerator, scale] = exactDecimal(rate);
  const num = BigInt(taxable) * numerator;
  const den = 100n * scale + numerator;
  return Number((2n * num + den) / (2n * den));
}

/** A finite decimal as integer numerator and power-of-ten denominator (6.5 → [65n, 10n]). */
function exactDecimal(value: number): [bigint, bigint] {
  const known = decimals.get(value);
  if (known) return known;
  const exact = decimalOf(value);
  // A catalogue has a handful of tax rates; the memo is bounded all the same.
  if (decimals.size >= 1000) decimals.clear();
  decimals.set(value, exact);
  return exact;
}

const decimals = new Map<number, [bigint, bigint]>();

function decimalOf(value: number): [bigint, bigint] {
  const text = Number.isInteger(value) ? String(value) : value.toFixed(12).replace(/0+$/, '');
  const [whole = '0', fraction = ''] = text.split('.');
  return [BigInt(whole + fraction), 10n ** BigInt(fraction.length)];
}

type AddedTax = Exclude<TaxDef, { type: 'percent_included' }>;

/** How many times an added tax is charged: a new tax type must say so here or fail to compile. */
export function addedTaxQuantity(tax: AddedTax, adults: number, nights: number): number {
  switch (tax.type) {
    case 'per_adult_per_night':
      return adults * nights;
    case 'per_stay':
      return 1;
    default: {
      const unknown: never = tax.type;
      throw new Error(`no quantity rule for tax type ${String(unknown)}`);
    }
  }
}
