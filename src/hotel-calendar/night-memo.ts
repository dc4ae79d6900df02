/**
 * Remembers per (room type, rate plan, night) what a long-lived merged view worked out once, in
 * dense arrays by night index: each cell holds the position + 1 of a value in a table of distinct
 * values (0 = not worked out yet), so a hotel whose 500 nights share a handful of prices keeps a
 * handful of objects. Bounded: 2 bytes per cell, and a table that would outgrow the cells'
 * range stops remembering (the value is then worked out on every call).
 */
export class NightMemo<V> {
  private readonly cells = new Map<string, Uint16Array>();
  private readonly values: V[] = [];
  private readonly positions = new Map<string, number>();

  constructor(
    private readonly length: number,
    private readonly keyOf: (value: V) => string,
  ) {}

  get(pair: string, index: number, compute: () => V): V {
    if (index < 0 || index >= this.length) return compute();
    let cells = this.cells.get(pair);
    if (!cells) {
      cells = new Uint16Array(this.length);
      this.cells.set(pair, cells);
    }
    const known = cells[index] as number;
    if (known !== 0) return this.values[known - 1] as V;
    const value = compute();
    const key = this.keyOf(value);
    let position = this.positions.get(key);
    if (position === undefined) {
      if (this.values.length >= 0xfffe) return value;
      position = this.values.push(value) - 1;
      this.positions.set(key, position);
    }
    cells[index] = position + 1;
    return this.values[position] as V;
  }

  /** Bytes held by the cells (the distinct values aside). */
  bytes(): number {
    let n = 0;
    for (const cells of this.cells.values()) n += cells.byteLength;
    return n;
  }
}
