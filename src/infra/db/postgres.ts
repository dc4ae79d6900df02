import pg from 'pg';
import {
  type ChannelHandlers,
  type Database,
  DatabaseUnavailableError,
  keepDateText,
  parseInt8,
  TYPE_OIDS,
  withEndHooks,
  withRetries,
} from './database.ts';
import { asResult, attemptTransaction, NO_CLIENT_TIMEOUT_MS } from './postgres-transaction.ts';

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** How long a request may wait for a connection before failing fast (outage, overload). */
  connectionTimeoutMs?: number;
  statementTimeoutMs?: number;
}

const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === TYPE_OIDS.int8 || oid === TYPE_OIDS.numeric) return parseInt8;
    if (oid === TYPE_OIDS.date) return keepDateText;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

/** Distinct statement texts prepared per connection at most. */
const MAX_PREPARED = 1000;

/**
 * Array arguments longer than this make a call run unnamed, planned for its arguments (see
 * `statement` below); a booking's nights and rooms stay well under it.
 */
export const LONG_ARRAY = 64;

const hasLongArray = (values: readonly unknown[]) =>
  values.some((v) => Array.isArray(v) && v.length > LONG_ARRAY);

/** Weight of the newest checkout in the running mean of connection hold times. */
const HOLD_MEAN_WEIGHT = 0.1;

/** A PostgreSQL server through a `pg` pool: the scaled-out deployment. */
export function openPostgresDatabase(options: PostgresOptions): Database {
  const statementTimeoutMs = options.statementTimeoutMs ?? 15_000;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeoutMs,
    // The server's statement_timeout cannot fire when the network to it is gone (no reset, just
    // silence): the client gives up a little later, so a request fails instead of hanging.
    query_timeout: statementTimeoutMs + 5_000,
    // A process that stalls (or is cut off) mid-transaction must not hold inventory row locks forever.
    idle_in_transaction_session_timeout: 60_000,
    keepAlive: true,
    application_name: 'innkeep',
    types,
  });
  // An idle client losing its server must not crash the process; the next checkout reconnects.
  pool.on('error', () => {});
  // A connection the server ends as it opens (pg_terminate_backend by a failover, a pooler restart
  // or an operator: FATAL 57P01 in the same packet as the end of the handshake) emits 'error'
  // before `connect()` below returns it, when no listener of a checkout is attached yet and the
  // pool's own was just removed: unhandled, that event ends the process. Every client carries this
  // listener from its first moment; `connect()` then hands no such client out.
  const dead = new WeakMap<pg.PoolClient, Error>();
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      if (!dead.has(client)) dead.set(client, error);
    });
  });
  // How long a checkout holds its connection, recently: with the queue length it tells how long a
  // new request would wait for one (load shedding).
  const heldSince = new WeakMap<pg.PoolClient, number>();
  let meanHoldMs = 0;
  let checkouts = 0;
  pool.on('acquire', (client) => heldSince.set(client, performance.now()));
  pool.on('release', (_error, client) => {
    const since = heldSince.get(client);
    if (since === undefined) return;
    const held = performance.now() - since;
    // An exponentially weighted mean: follows a change within some tens of checkouts.
    meanHoldMs = checkouts === 0 ? held : meanHoldMs + HOLD_MEAN_WEIGHT * (held - meanHoldMs);
    checkouts++;
  });
  // Every statement gets its connection here: a connection the server refuses (SQLSTATE 55000
  // when a database does not allow connections, 53300 too many clients, 57P03 starting up...) or
  // that cannot be opened in time is the database being unavailable, whatever the code says.
  const connect = async (): Promise<pg.PoolClient> => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw new DatabaseUnavailableError(error);
    }
    const lost = dead.get(client);
    if (lost) {
      client.release(lost);
      throw new DatabaseUnavailableError(lost);
    }
    return client;
  };
  /** One statement on a connection of its own (pg's `pool.query`, with refusals told apart). */
  const once = async (query: pg.QueryConfig): Promise<pg.QueryResult> => {
    const client = await connect();
    // A checked-out client has no pool listener: a connection lost under the statement must not
    // be an unhandled 'error' event (the statement fails with it anyway).
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost = error;
    };
    client.on('error', onError);
    try {
      const result = await client.query(query);
      client.removeListener('error', onError);
      client.release(lost);
      return result;
    } catch (error) {
      client.removeListener('error', onError);
      // As pool.query does: a connection a statement failed on is not reused.
      client.release(error as Error);
      throw error;
    }
  };
  // Parameterised statements are prepared once per connection (named by their text) and reused:
  // the server parses them once instead of on every call, and from the sixth call may run them on
  // a generic plan, made without the arguments' values. That suits a statement on a few keys, and
  // one taking short arrays (a booking's nights), but not a call with long arrays: the best plan of
  // an unnest join of 2,000 cells is not that of 2 cells, and a generic plan made without the sizes
  // read thousands of rows per cell (FreeRooms, past the statement timeout). So a call with an
  // array argument longer than LONG_ARRAY runs unnamed, planned for its arguments as PostgreSQL
  // plans an unnamed statement, and leaves the named statement's plan choice alone; other calls
  // run named. Bounded: past MAX_PREPARED texts, a new text runs unnamed too.
  const names = new Map<string, string>();
  const statement = (text: string, values?: readonly unknown[]): pg.QueryConfig => {
    if (values === undefined || hasLongArray(values)) return { text, values: values as unknown[] };
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED) {
      name = `ik${names.size}`;
      names.set(text, name);
    }
    return name === undefined
      ? { text, values: values as unknown[] }
      : { name, text, values: values as unknown[] };
  };
  const listeners: Listener[] = [];
  const database: Database = {
    kind: 'postgres',
    identity: {},
    query: async <T>(sql: string, params?: readonly unknown[]) =>
      asResult<T>(await once(statement(sql, params))),
    transaction: (fn) =>
      withRetries(() =>
        withEndHooks(async (onEnd) =>
          attemptTransaction(await connect(), fn, onEnd, { statement, database }),
        ),
      ),
    script: async (sql) => {
      await once({ text: sql, query_timeout: NO_CLIENT_TIMEOUT_MS } as pg.QueryConfig);
    },
    ping: async () => {
      await once({ text: 'SELECT 1' });
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: options.poolSize,
      meanHoldMs,
      checkouts,
    }),
    listen: (channel, handlers) => {
      listeners.push(listen(options.url, channel, handlers));
    },
    close: async () => {
      for (const l of listeners.splice(0)) l.close();
      await pool.end();
    },
  };
  return database;
}

/** How often the listening connection proves it is alive, and how long it may take to answer. */
const HEARTBEAT_MS = 250;
const HEARTBEAT_TIMEOUT_MS = 750;

interface Listener {
  close(): void;
}

/**
 * LISTEN on a connection of its own. A heartbeat (`SELECT 1`) finds a connection that died
 * silently (a cut network gives no reset); then it is dropped, `disconnected` is called, and a new
 * one is tried on every beat until it answers `LISTEN`, when `connected` is called.
 */
function listen(url: string, channel: string, handlers: ChannelHandlers): Listener {
  let client: pg.Client | null = null;
  let up = false;
  let closed = false;
  let busy = false;
  const drop = () => {
    const old = client;
    client = null;
    if (up) {
      up = false;
      handlers.disconnected();
    }
    old?.removeAllListeners('notification');
    old?.on('error', () => {});
    void old?.end().catch(() => {});
  };
  const beat = async () => {
    if (busy || closed) return;
    busy = true;
    try {
      if (!client) {
        const next = new pg.Client({
          connectionString: url,
          application_name: 'innkeep-listen',
          connectionTimeoutMillis: HEARTBEAT_TIMEOUT_MS * 2,
          query_timeout: HEARTBEAT_TIMEOUT_MS,
          keepAlive: true,
        });
        next.on('error', () => drop());
        next.on('end', () => {
          if (client === next) drop();
        });
        next.on('notification', (n) => {
          if (client === next && n.channel === channel) handlers.message(n.payload ?? '');
        });
        client = next;
        await next.connect();
        await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
        if (closed || client !== next) return;
        up = true;
        handlers.connected();
      } else {
        await client.query('SELECT 1');
      }
    } catch {
      drop();
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void beat(), HEARTBEAT_MS);
  timer.unref();
  void beat();
  return {
    close() {
      closed = true;
      clearInterval(timer);
      up = false;
      drop();
    },
  };
}
