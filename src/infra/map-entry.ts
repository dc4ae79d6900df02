/** What `entryOf` needs of a table: a Map or a WeakMap. */
interface Table<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/**
 * `table`'s entry for `key`, made by `make` and stored first when it has none: the nested memo
 * tables of search's hot path (nights by room type, deadlines by time zone and days, a plan's
 * rates). On a hot path pass a function made once (`newMap`), not a closure made per call.
 */
export function entryOf<K, V>(table: Table<K, V>, key: K, make: () => NoInfer<V>): V {
  let value = table.get(key);
  if (value === undefined) {
    value = make();
    table.set(key, value);
  }
  return value;
}

/** An empty Map, as `entryOf`'s `make` for a table of tables. */
export const newMap = <K, V>(): Map<K, V> => new Map<K, V>();
