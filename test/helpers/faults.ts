import type { Database } from '../../src/infra/db/database.ts';

/**
 * Where the next transaction fails. `before-commit`: after its last statement, before COMMIT (the
 * commit fails or the process dies: nothing is kept, the client gets a 500 or nothing).
 * `after-commit`: right after COMMIT the process is gone: everything is kept, nothing after the
 * commit runs (no compensation, no answer), and the request never completes.
 */
export type TransactionFault = 'before-commit' | 'after-commit';

/** A request that never completes: what a client sees of a process killed while serving it. */
const never = new Promise<never>(() => {});

/** The real engine with a one-shot failure injected at the transaction seam (`arm`). */
export function faultyDatabase() {
  let next: TransactionFault | null = null;
  let fired = () => {};
  const wrap = (db: Database): Database => ({
    ...db,
    async transaction(fn) {
      const fault = next;
      next = null;
      const result = await db.transaction(async (tx) => {
        const value = await fn(tx);
        if (fault === 'before-commit') {
          fired();
          throw new Error('injected fault: before commit');
        }
        return value;
      });
      // Throwing here would look like a failed commit (and refund a committed charge); a kill
      // -9 runs nothing more at all.
      if (fault === 'after-commit') {
        fired();
        return never;
      }
      return result;
    },
  });
  return {
    wrap,
    /** Resolves once the fault happened (for `after-commit`: once the transaction committed). */
    arm(fault: TransactionFault): Promise<void> {
      next = fault;
      return new Promise((resolve) => {
        fired = resolve;
      });
    },
  };
}

/** Where the next transaction waits: before it begins, or after its last statement, before COMMIT. */
export type TransactionPause = 'before-begin' | 'before-commit';

/** The real engine, where one transaction can be held at a point of its life (`hold`) for a race. */
export function pausableDatabase() {
  let next: { at: TransactionPause; reached: () => void; released: Promise<void> } | null = null;
  const wrap = (db: Database): Database => ({
    ...db,
    async transaction(fn) {
      const pause = next;
      next = null;
      if (pause?.at === 'before-begin') {
        pause.reached();
        await pause.released;
      }
      return db.transaction(async (tx) => {
        const value = await fn(tx);
        if (pause?.at === 'before-commit') {
          pause.reached();
          await pause.released;
        }
        return value;
      });
    },
  });
  return {
    wrap,
    /** Holds the next transaction at `at`: `reached` resolves when it gets there; `release` lets it go on. */
    hold(at: TransactionPause) {
      let reached = () => {};
      let release = () => {};
      const gotThere = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      next = { at, reached, released };
      return { reached: gotThere, release };
    },
  };
}

/**
 * The real engine, which can be taken away: while `down`, every statement and transaction fails as
 * a lost connection does (SQLSTATE 08006), and the next transaction can be held before it begins
 * (`holdNext`), so a request can be caught between its Idempotency-Key claim and its write.
 */
export function outageDatabase() {
  let down = false;
  let gate: { reached: () => void; released: Promise<void> } | null = null;
  const refuse = () => {
    if (down) throw Object.assign(new Error('injected outage: connection lost'), { code: '08006' });
  };
  const wrap = (db: Database): Database => ({
    ...db,
    async query<T>(sql: string, params?: readonly unknown[]) {
      refuse();
      return db.query<T>(sql, params);
    },
    async script(sql: string) {
      refuse();
      return db.script(sql);
    },
    async ping() {
      refuse();
      return db.ping();
    },
    async transaction(fn) {
      const held = gate;
      gate = null;
      if (held) {
        held.reached();
        await held.released;
      }
      refuse();
      return db.transaction(fn);
    },
  });
  return {
    wrap,
    set down(value: boolean) {
      down = value;
    },
    /** Holds the next transaction before it begins: `reached` resolves there, `release` lets it go on. */
    holdNext() {
      let reached = () => {};
      let release = () => {};
      const arrived = new Promise<void>((resolve) => {
        reached = resolve;
      });
      gate = { reached, released: new Promise<void>((resolve) => (release = resolve)) };
      return { reached: arrived, release };
    },
  };
}
