import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BIGINT, type Exact, exactly, NUMBER } from './exact-arithmetic.ts';

/** The checked doubles against BigInt: the same result, or a give-up that `exactly` answers with BigInt. */
const SEED = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};
const MAX = Number.MAX_SAFE_INTEGER;

/** Safe integers, many of them near the edges where doubles stop being exact. */
const whole = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.maxSafeNat(),
  fc.integer({ min: 0, max: 1_000 }).map((d) => MAX - d),
  fc.integer({ min: 1, max: 2 ** 26 }),
);

/** One computation of a price's shape: a product, a sum, a rounding. */
function compute<T>(x: Exact<T>, a: number, b: number, c: number): number {
  const d = x.of(c === 0 ? 1 : c);
  return x.toNumber(x.roundHalfUp(x.add(x.mul(x.of(a), x.of(b)), x.of(c)), d));
}

describe('checked doubles and BigInt', () => {
  it('agree wherever the doubles do not give up, and `exactly` always agrees with BigInt', () => {
    let gaveUp = 0;
    fc.assert(
      fc.property(whole, whole, whole, (a, b, c) => {
        const big = compute(BIGINT, a, b, c);
        assert.equal(
          exactly((x) => compute(x, a, b, c)),
          big,
        );
        try {
          assert.equal(compute(NUMBER, a, b, c), big);
        } catch (e) {
          if (typeof e !== 'symbol') throw e;
          gaveUp++;
          // It gives up only where an exact value really passed 2^53 − 1.
          const exact = BigInt(a) * BigInt(b) + BigInt(c);
          assert.ok(exact > BigInt(MAX) || 2n * exact + BigInt(c === 0 ? 1 : c) > BigInt(MAX));
        }
      }),
      { numRuns: 5000, ...SEED },
    );
    assert.ok(gaveUp > 0, 'the edges were reached');
  });

  it('rounds half up exactly near 2^53', () => {
    // (2^52 − 3) / 2 = 2^51 − 1.5 → 2^51 − 1 (half up)
    const a = 2 ** 52 - 3;
    assert.equal(NUMBER.roundHalfUp(a, 2), 2 ** 51 - 1);
    assert.equal(BIGINT.roundHalfUp(BigInt(a), 2n), 2n ** 51n - 1n);
    // 2a + b = 2^53 − 1 exactly: the largest numerator the doubles take.
    assert.equal(NUMBER.roundHalfUp(2 ** 52 - 4, 7), Number(BIGINT.roundHalfUp(2n ** 52n - 4n, 7n)));
    // 2·a + b just under 2^53: still exact; one more and the doubles give up.
    const top = (MAX - 3) / 2;
    assert.equal(NUMBER.roundHalfUp(top, 3), Number(BIGINT.roundHalfUp(BigInt(top), 3n)));
    assert.throws(() => NUMBER.roundHalfUp(top + 2, 3));
  });

  it('passes on errors that are not its own', () => {
    assert.throws(
      () =>
        exactly(() => {
          throw new RangeError('not an overflow');
        }),
      RangeError,
    );
  });
});
