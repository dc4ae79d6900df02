/** The one data-access seam: both engines (PGlite and PostgreSQL) implement it with the same SQL. */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Executor {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Runs several `;`-separated statements without parameters (migrations). */
  script(sql: string): Promise<void>;
}

/**
 * Work a caller adds to the end of a write's transaction, given the write's result: it commits with
 * the write or not at all (the HTTP layer stores the idempotent response this way). A throw rolls
 * the whole write back. May run more than once when the transaction is retried.
 */
export type BeforeCommit<T> = (tx: Executor, result: T) => Promise<void>;

/** Options every business write takes. */
export interface WriteOptions<T> {
  beforeCommit?: BeforeCommit<T> | undefined;
}

/**
 * The last step of a write's transaction: runs the caller's `beforeCommit` with the result the
 * write is about to return (the same object, so the caller can tell which attempt committed).
 */
export async function finishWrite<T>(tx: Executor, result: T, options: WriteOptions<T>): Promise<T> {
  await options.beforeCommit?.(tx, result);
  return result;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  /** The most connections the pool opens. */
  max: number;
  /** Recent mean time a connection is held per checkout (ms; 0 before the first one). */
  meanHoldMs: number;
  /** Checkouts so far (a counter), to relate connection use to requests served. */
  checkouts: number;
}

/** Told, once a transaction attempt has ended, whether it committed. */
export type EndHook = (committed: boolean) => Promise<void>;

/** The executor of one transaction attempt. */
export interface Transaction extends Executor {
  /**
   * Runs `hook` once this attempt has ended: after COMMIT (`true`) or after a rollback, a failed
   * commit or a retry (`false`). How an external effect (a card charge) follows the data: it is
   * undone when the attempt that made it does not commit. A hook handles its own failures.
   */
  onEnd(hook: EndHook): void;
  /**
   * Notifies `channel` with `payload` when this attempt commits (PostgreSQL's NOTIFY, delivered at
   * commit in the order sent). Held and sent in the round trip of the COMMIT, one statement for the
   * whole transaction's notifications, rather than one round trip each; dropped on a rollback, as
   * NOTIFY is. The embedded engine has no listeners: nothing is sent.
   */
  notify(channel: string, payload: string): void;
  /**
   * Small statements (a lock, then a count that must see what committed before the lock was
   * granted) in one round trip: run in order, each with its own snapshot, as `query` would run them
   * one after the other; answers the last one's rows. On PostgreSQL they go as one simple query,
   * their parameters as escaped literals (so unprepared: for statements cheaper to parse than a
   * round trip), with the transaction's BEGIN when they are its first. The embedded engine has no
   * round trips: it runs them one by one.
   */
  batch<T = Record<string, unknown>>(
    statements: ReadonlyArray<{ sql: string; params?: readonly unknown[] }>,
  ): Promise<QueryResult<T>>;
  /** The database this transaction belongs to (what a per-database cache keys its state on). */
  readonly database: Database;
}

/**
 * Notifies `channel` at the commit of `ex`'s transaction, or at once (its own statement) when `ex`
 * is no transaction's.
 */
export async function notifyAtCommit(ex: Executor, channel: string, payload: string): Promise<void> {
  if (isTransaction(ex)) ex.notify(channel, payload);
  else await ex.query('SELECT pg_notify($1, $2)', [channel, payload]);
}

/** What a listener on a notification channel is told (PostgreSQL's LISTEN / NOTIFY). */
export interface ChannelHandlers {
  /** A notification's payload, in commit order of the transactions that sent them. */
  message(payload: string): void;
  /**
   * The listening connection is (again) up: notifications sent while it was down are lost, so
   * what was learnt from them must be read again.
   */
  connected(): void;
  /** The listening connection is down (lost, or silent past its heartbeat): do not trust it. */
  disconnected(): void;
}

/**
 * Whether `ex` is a transaction nothing else can run beside: the embedded engine's, which serves
 * one transaction at a time, whole, in the one process that opens its data directory (`fairTurns`
 * in pglite.ts). An advisory lock taken there orders nothing, so callers skip its statement.
 */
export function runsAlone(ex: Executor): boolean {
  return isTransaction(ex) && ex.database.kind === 'embedded';
}

/** Whether an executor is a transaction's (one whose end can be awaited with `onEnd`). */
export function isTransaction(ex: Executor): ex is Transaction {
  return typeof (ex as Partial<Transaction>).onEnd === 'function';
}

export interface Database extends Executor {
  readonly kind: 'embedded' | 'postgres';
  /** The same object for every handle (wrapper) of one database: what per-database state is keyed on. */
  readonly identity: object;
  /**
   * Runs `fn` in one READ COMMITTED transaction. Deadlocks and serialization failures are retried a
   * bounded number of times, so `fn` must be safe to run again (external effects compensated on
   * failure, see `Transaction.onEnd`).
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /**
   * PostgreSQL only: listens on `channel` on a connection of its own (not the pool's), kept alive
   * with a heartbeat and reconnected when lost; closed with the database. Absent on the embedded
   * engine, where one process makes every change.
   */
  listen?(channel: string, handlers: ChannelHandlers): void;
  /**
   * Embedded engine only, where this process makes every change: a count that moves before and
   * after every statement or transaction that may write one of `tables` (or that may write
   * anything: DDL, scripts). What was read from those tables while it stayed the same is still the
   * database's state, so a process may answer it again from memory (check-in session reads) until
   * it moves. Absent on PostgreSQL, where other processes write.
   */
  changeCount?(tables: readonly string[]): number;
  /**
   * Embedded engine only: a gzipped tar of the data directory (`pgdata/…`), taken while no
   * statement runs, after a CHECKPOINT. A copy as a crash would leave it: opened, the engine
   * replays its log to the last commit, so it holds every transaction committed before the dump.
   */
  dumpDataDir?(): Promise<Uint8Array>;
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/**
 * No connection to the database could be had: the server refused it (not accepting connections,
 * too many clients, starting up or shutting down), did not answer in time, or is not reachable.
 * Whatever the SQLSTATE (55000 "not currently accepting connections" means something else on a
 * statement), a refused connection is the database being unavailable, never the request's fault.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`no database connection: ${(cause as Error | null)?.message ?? String(cause)}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/** SQLSTATEs after which a whole transaction may simply be run again. */
const RETRYABLE = new Set(['40001', '40P01']);
export const MAX_TRANSACTION_ATTEMPTS = 5;

export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export async function withRetries<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const state = sqlState(error);
      if (!state || !RETRYABLE.has(state) || attempt >= MAX_TRANSACTION_ATTEMPTS) throw error;
      // Jittered backoff so the transactions that collided do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/**
 * One transaction attempt with its end hooks: the engines run BEGIN … COMMIT inside `attempt`,
 * handing `onEnd` to the executor, and the hooks run with the outcome once it is known.
 */
export async function withEndHooks<T>(attempt: (onEnd: Transaction['onEnd']) => Promise<T>): Promise<T> {
  const hooks: EndHook[] = [];
  const runHooks = async (committed: boolean) => {
    for (const hook of hooks) {
      // A hook reports its own failures; one failing must not keep the others from running.
      await hook(committed).catch(() => {});
    }
  };
  let result: T;
  try {
    result = await attempt((hook) => {
      hooks.push(hook);
    });
  } catch (error) {
    await runHooks(false);
    throw error;
  }
  await runHooks(true);
  return result;
}

/** Postgres type OIDs parsed the same way on both engines. */
export const TYPE_OIDS = { int8: 20, date: 1082, numeric: 1700 } as const;
export const parseInt8 = (value: string): number => Number(value);
export const keepDateText = (value: string): string => value;
