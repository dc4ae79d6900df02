/**
 * Search's per-(room type, rate plan) arrays over a dense window of nights (hotel-nights.ts makes
 * them): a night's restrictions and price fields worked out once, by index, as nights are asked.
 * Generic over the restriction and price shapes so this file needs nothing of hotel-nights.ts.
 */

/**
 * One (room type, rate plan) over a stay's nights, by night index in a dense window: each night's
 * restrictions and price fields read from arrays (no key built, no lookup by date per night), and
 * whether any night is stop-sold from one byte per night.
 */
export interface PairStayNights<R, P> {
  /** Window index of the check-in night, and of the check-out date (the first night not stayed). */
  readonly from: number;
  readonly to: number;
  /** Is any night of the stay stop-sold under the pair's restrictions? */
  readonly stopSold: boolean;
  /** Restrictions of the night at window index `n`: `restrictionsOn`'s answer. */
  restrictions(n: number): R;
  /** Price fields of the night at window index `n`: `priceOn`'s answer. */
  price(n: number): P;
}

/** What a dense window remembers per (room type, rate plan), by night index, filled as nights are asked. */
export class PairNights<R extends { stopSell: unknown }, P> {
  /** Per night: 0 not worked out yet, 1 on sale, 2 stop-sold. */
  readonly stop: Uint8Array;
  readonly rules: Array<R | undefined>;
  readonly prices: Array<P | undefined>;
  constructor(
    length: number,
    readonly ruleOf: (n: number) => R,
    readonly priceOf: (n: number) => P,
  ) {
    this.stop = new Uint8Array(length);
    this.rules = new Array<R | undefined>(length);
    this.prices = new Array<P | undefined>(length);
  }
}

export class PairStay<R extends { stopSell: unknown }, P> implements PairStayNights<R, P> {
  private stopped: boolean | undefined;
  constructor(
    private readonly pair: PairNights<R, P>,
    readonly from: number,
    readonly to: number,
  ) {}

  get stopSold(): boolean {
    if (this.stopped === undefined) {
      const { stop } = this.pair;
      let found = false;
      for (let n = this.from; n < this.to && !found; n++) {
        let state = stop[n] as number;
        if (state === 0) {
          state = this.restrictions(n).stopSell ? 2 : 1;
          stop[n] = state;
        }
        found = state === 2;
      }
      this.stopped = found;
    }
    return this.stopped;
  }

  restrictions(n: number): R {
    let rules = this.pair.rules[n];
    if (rules === undefined) {
      rules = this.pair.ruleOf(n);
      this.pair.rules[n] = rules;
    }
    return rules;
  }

  price(n: number): P {
    let price = this.pair.prices[n];
    if (price === undefined) {
      price = this.pair.priceOf(n);
      this.pair.prices[n] = price;
    }
    return price;
  }
}
