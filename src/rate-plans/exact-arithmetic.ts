/**
 * Whole-number arithmetic for a plan's exact amounts (numerators over `unit × nights` minor
 * units), in two kinds: `number`, checked, and `bigint`. Every amount of a plan is a non-negative
 * integer, so a `number` result is exact as long as it is at most 2^53 − 1; past that the checked
 * kind gives up and the same computation runs again on `bigint` (`exactly`). A BigInt operation
 * allocates and costs several times a double's: with every amount a `bigint`, pricing a room under
 * an AlpineBits plan was the largest part of what such a plan adds to a search (issue 36.4). The
 * catalogue's bounds (amounts up to 10^8, stays up to 365 nights) let real prices pass 2^53 only in
 * the extreme: a supplement charged per person per night on a long stay of a unit of many nights.
 */
export interface Exact<T> {
  /** A safe non-negative integer (an amount or a count of the catalogue) as this kind. */
  of(n: number): T;
  add(a: T, b: T): T;
  mul(a: T, b: T): T;
  /** a / b rounded half up (a ≥ 0, b > 0). */
  roundHalfUp(a: T, b: T): T;
  toNumber(a: T): number;
  readonly zero: T;
}

/** Thrown (not an Error: no stack to capture) when a checked `number` result passes 2^53 − 1. */
const OVERFLOW = Symbol('exact-arithmetic overflow');

function checked(x: number): number {
  if (x > Number.MAX_SAFE_INTEGER) throw OVERFLOW;
  return x;
}

export const NUMBER: Exact<number> = {
  of: (n) => {
    if (!Number.isSafeInteger(n)) throw OVERFLOW;
    return n;
  },
  add: (a, b) => checked(a + b),
  mul: (a, b) => checked(a * b),
  roundHalfUp: (a, b) => {
    const n = checked(2 * a + b);
    const d = 2 * b;
    // `%` of two safe integers is exact, and so is the division of a multiple of d by d.
    return (n - (n % d)) / d;
  },
  toNumber: (a) => a,
  zero: 0,
};

export const BIGINT: Exact<bigint> = {
  of: (n) => BigInt(n),
  add: (a, b) => a + b,
  mul: (a, b) => a * b,
  roundHalfUp: (a, b) => (2n * a + b) / (2n * b),
  toNumber: (a) => Number(a),
  zero: 0n,
};

/**
 * `compute` with checked doubles, or again with BigInt if a value passed 2^53 − 1: the same
 * answer either way. `compute` must have no effect other than its result (it may run twice).
 */
export function exactly<R>(compute: <T>(x: Exact<T>) => R): R {
  try {
    return compute(NUMBER);
  } catch (e) {
    if (e !== OVERFLOW) throw e;
    return compute(BIGINT);
  }
}
