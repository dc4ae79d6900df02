import type { Database } from './database.ts';

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

interface Group<Item, Result> {
  waiting: Array<Waiting<Item, Result>>;
  running: boolean;
}

/** What a group of items does in one statement: one result per item, in the items' order. */
export type GroupStatement<Item, Result> = (db: Database, key: string, items: Item[]) => Promise<Result[]>;

/**
 * Items that many requests send on their own, each answered by the database before its request
 * is, sent as one statement per group of them (issue 36). An item that finds no statement of its
 * group (same database handle, same `key`) under way is sent at once, alone, so a quiet service
 * waits for nothing; items that come while one is under way wait for it and then go together, up
 * to `maxItems` a statement. Under load a statement's round trip, its parse and its system calls
 * are paid once per group rather than once per item. An item never shares a statement sent before
 * it came, so its answer sees every commit made before it was asked.
 *
 * `key` keeps items apart that must not share a statement: a hotel's rows are on that hotel's
 * shard on Citus, so one statement per hotel stays on one shard.
 *
 * `alone`: when a group's statement fails with an error for which it says true (one item's data at
 * fault), each item is sent again alone, so an item fails only for its own fault; any other
 * failure (the database unavailable, a timeout) is every item's answer at once.
 */
export function groupedStatements<Item, Result>(
  run: GroupStatement<Item, Result>,
  maxItems: number,
  alone: (error: unknown) => boolean = () => false,
): (db: Database, key: string, item: Item) => Promise<Result> {
  const groups = new WeakMap<object, Map<string, Group<Item, Result>>>();

  async function runAlone(db: Database, key: string, w: Waiting<Item, Result>): Promise<void> {
    try {
      const [result] = await run(db, key, [w.item]);
      w.resolve(result as Result);
    } catch (error) {
      w.reject(error);
    }
  }

  async function drain(db: Database, key: string, group: Group<Item, Result>): Promise<void> {
    group.running = true;
    try {
      while (group.waiting.length > 0) {
        const batch = group.waiting.splice(0, maxItems);
        try {
          const results = await run(
            db,
            key,
            batch.map((w) => w.item),
          );
          for (let i = 0; i < batch.length; i++) batch[i]?.resolve(results[i] as Result);
        } catch (error) {
          if (batch.length > 1 && alone(error)) for (const w of batch) await runAlone(db, key, w);
          else for (const w of batch) w.reject(error);
        }
      }
    } finally {
      group.running = false;
    }
  }

  return (db, key, item) => {
    // By handle, not by the database's identity: a group runs through the handle that started
    // it, and another handle of the same database (a test's second app) may close first.
    const byKey = groups.get(db) ?? new Map<string, Group<Item, Result>>();
    groups.set(db, byKey);
    let group = byKey.get(key);
    if (!group) {
      group = { waiting: [], running: false };
      byKey.set(key, group);
    }
    const waiting = group;
    return new Promise<Result>((resolve, reject) => {
      waiting.waiting.push({ item, resolve, reject });
      if (!waiting.running) {
        void drain(db, key, waiting).then(() => {
          // An idle group is forgotten, so keys (hotels) come and go without piling up.
          if (!waiting.running && waiting.waiting.length === 0) byKey.delete(key);
        });
      }
    });
  };
}
