/**
 * Helpers for the PostgreSQL production tests: this file's database, a scratch database, a TCP
 * proxy that can cut the database off, and (re-exported from test/helpers/service-process.ts)
 * spawned service processes and a small HTTP client over real sockets.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import type { Executor } from '../../src/infra/db/database.ts';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { type ServiceProcess, startService } from '../helpers/service-process.ts';
import { onTestFile, runDatabaseName, testDatabaseUrl } from '../helpers/test-database.ts';

// Spawning the service and talking HTTP to it are not PostgreSQL's: they live in a helper that
// tests of the embedded engine import too, without this module's per-file database.
export {
  type HttpResult,
  http,
  ROOT,
  run,
  type ServiceProcess,
  startService,
} from '../helpers/service-process.ts';

/**
 * This test file's own database (a copy of the run's migrated template), or none. Set as the file
 * starts, before its own hooks (a live binding: read it in hooks and tests, not as the file loads).
 */
export let DATABASE_URL: string | undefined;
onTestFile(async () => {
  DATABASE_URL = await testDatabaseUrl();
});
/** `skip` value for tests that need a PostgreSQL server: a reason when there is none. */
export const needsPostgres: string | false = process.env.DATABASE_URL
  ? false
  : 'needs PostgreSQL: set DATABASE_URL (npm run test:pg creates a fresh database and sets it)';

export const newEncryptionKey = () => randomBytes(32).toString('base64');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value other than undefined; fails after `attempts`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  attempts = 200,
): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error(`gave up waiting for ${what}`);
}

/**
 * An operator key with the inventory scopes for every hotel, written straight to the database the
 * service processes share (they hash with `encryptionKey`): its secret.
 */
export async function inventoryKey(client: pg.Client, encryptionKey: string, name: string): Promise<string> {
  const hash = operatorKeyHasher(Buffer.from(encryptionKey, 'base64'));
  const { secret } = await insertCliKey(client as unknown as Executor, hash, {
    name,
    scopes: ['inventory:read', 'inventory:write'],
    hotelIds: null,
  });
  return secret;
}

/** A client on DATABASE_URL for checks and lock games; the caller ends it. */
export async function sqlClient(url = DATABASE_URL as string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** A fresh, empty database on the same server as DATABASE_URL (needs CREATEDB). */
export async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = await sqlClient();
  const name = runDatabaseName('scratch');
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(DATABASE_URL as string);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** DATABASE_URL with its host and port replaced (to go through a proxy, or nowhere). */
export function databaseUrlVia(port: number, base = DATABASE_URL as string): string {
  const url = new URL(base);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

/** A port nothing listens on. */
export async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A TCP proxy between the service and PostgreSQL. `cut()` kills every connection and stops
 * listening (the database "goes away"); `restore()` listens again on the same port.
 */
export class TcpProxy {
  port = 0;
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private frozen = false;

  constructor(private readonly target: { host: string; port: number }) {}

  static async to(databaseUrl: string): Promise<TcpProxy> {
    const url = new URL(databaseUrl);
    const proxy = new TcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    await proxy.restore();
    return proxy;
  }

  async restore(): Promise<void> {
    this.frozen = false;
    const server = net.createServer((inbound) => {
      if (this.frozen) {
        this.sockets.add(inbound);
        inbound.on('close', () => this.sockets.delete(inbound));
        inbound.on('error', () => inbound.destroy());
        return;
      }
      const outbound = net.connect(this.target.port, this.target.host);
      for (const socket of [inbound, outbound]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          inbound.destroy();
          outbound.destroy();
        });
      }
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
      inbound.pipe(outbound).pipe(inbound);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /**
   * The network goes silent: connections stay open but nothing passes, and new ones are accepted
   * and never answered (a partition, a powered-off host). `cut()` then `restore()` to end it.
   */
  freeze(): void {
    this.frozen = true;
    for (const socket of this.sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

export async function writeCatalog(hotels: HotelDef[]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'innkeep-catalog-'));
  const file = path.join(dir, 'catalog.json');
  await writeFile(file, JSON.stringify({ hotels }));
  return file;
}

/** Runs `task` over `items` with at most `limit` in flight. */
export async function inParallel<T, R>(
  items: T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Per (room type, night) of a hotel: what `inventory` says is sold, and what the confirmed
 * reservations add up to. They must be equal, and sold never above total.
 */
export async function inventoryVersusReservations(client: pg.Client, hotelId: string) {
  const { rows } = await client.query<{
    room_type_id: string;
    night: string;
    total: number | null;
    sold: number | null;
    expected: number;
  }>(
    `WITH expected AS (
       SELECT r.room_type_id, n::date AS night, sum(r.rooms)::int AS sold
       FROM reservations r, generate_series(r.check_in, r.check_out - 1, interval '1 day') AS n
       WHERE r.hotel_id = $1 AND r.status = 'confirmed'
       GROUP BY 1, 2)
     SELECT coalesce(i.room_type_id, e.room_type_id) AS room_type_id, coalesce(i.night, e.night)::text AS night,
            i.total, i.sold, coalesce(e.sold, 0) AS expected
     FROM (SELECT * FROM inventory WHERE hotel_id = $1) i
     FULL JOIN expected e ON e.room_type_id = i.room_type_id AND e.night = i.night
     ORDER BY 1, 2`,
    [hotelId],
  );
  return rows;
}

/**
 * A scaled-out deployment for a test: two service processes on this file's database serving
 * `hotels` (small pools, no bootstrap key), and an inventory key for them. `stop` ends both and
 * checks that each exited cleanly.
 */
export async function startTwoServices(
  hotels: HotelDef[],
  keyName: string,
  env: Record<string, string> = {},
): Promise<{ services: [ServiceProcess, ServiceProcess]; operatorKey: string; stop(): Promise<void> }> {
  const encryptionKey = newEncryptionKey();
  const serviceEnv = {
    DATABASE_URL: DATABASE_URL as string,
    DATA_ENCRYPTION_KEY: encryptionKey,
    CATALOG_FILE: await writeCatalog(hotels),
    OPERATOR_BOOTSTRAP: 'false',
    DB_POOL_SIZE: '3',
    ...env,
  };
  const services = await Promise.all([startService(serviceEnv), startService(serviceEnv)]);
  const sql = await sqlClient();
  const operatorKey = await inventoryKey(sql, encryptionKey, keyName).finally(() => sql.end());
  return {
    services,
    operatorKey,
    async stop() {
      const exits = await Promise.all(services.map((s) => s.stop()));
      for (const exit of exits) assert.deepEqual(exit, { code: 0, signal: null });
    },
  };
}
