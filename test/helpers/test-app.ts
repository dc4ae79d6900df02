import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { testHotel } from '../../src/catalog/catalog.fixtures.ts';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Clock } from '../../src/infra/clock.ts';
import type { Database } from '../../src/infra/db/database.ts';
import { createLogger } from '../../src/infra/logger.ts';
import type { PaymentProvider } from '../../src/payments/payment-provider.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { openApiResponseChecker } from './openapi-responses.ts';
import { sharedSchemaCompilers } from './schema-compilers.ts';
import { testDatabaseUrl, testFileDatabase } from './test-database.ts';

/** A clock tests can move: quote expiry, check-out and retention without sleeping. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  advanceDays(days: number): void {
    this.advance(days * 24 * 3600 * 1000);
  }
}

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  db: Database;
  clock: TestClock;
  config: Config;
  /** Everything the service logged, as raw JSON lines (for the no-secrets-in-logs checks). */
  logs: string[];
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies; assertions type-check each field they use
  inject(options: InjectOptions): Promise<LightMyRequestResponse & { json<T = any>(): T }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  hotels: HotelDef[];
  /** Load the catalogue from this file instead (as `npm start` does: photo files checked), not `hotels`. */
  catalogFile?: string;
  env?: Record<string, string>;
  payments?: PaymentProvider;
  /** Wraps the engine the app uses (fault injection at the transaction seam); `db` stays the real one. */
  wrapDb?: (db: Database) => Database;
}

/** What of node's test context a test app needs: where to register its own cleanup. */
export interface Cleanup {
  after(fn: () => Promise<void> | void): void;
}

/** Whether the first argument of a `start…App` is the test's context (the `build(t)` style). */
export function isCleanup(value: unknown): value is Cleanup {
  return typeof (value as Cleanup | undefined)?.after === 'function';
}

/**
 * Builds the real app on a real engine: PostgreSQL when DATABASE_URL is set (the suite's
 * PostgreSQL run), else PGlite; either way a migrated database of this test file's own, shared
 * by its apps (see test-database.ts). Hotels come from `hotels` (use makeHotel). Given the test's
 * context first (`startTestApp(t, { … })`), the app closes itself when the test ends, passed or
 * failed; without it, the caller closes it (a test of restarts, an app shared by a `describe`).
 */
export async function startTestApp(cleanup: Cleanup, options?: TestAppOptions): Promise<TestApp>;
export async function startTestApp(options?: TestAppOptions): Promise<TestApp>;
export async function startTestApp(
  first?: Cleanup | TestAppOptions,
  second?: TestAppOptions,
): Promise<TestApp> {
  if (isCleanup(first)) {
    const app = await startTestApp(second);
    first.after(() => app.close());
    return app;
  }
  const options = first ?? { hotels: [] };
  const databaseUrl = await testDatabaseUrl();
  const env: Record<string, string> = {
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: `/tmp/innkeep-test-${process.pid}`,
    LOG_LEVEL: 'info',
    // A busy test machine is not an overloaded service: tests of shedding set their own thresholds.
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    LOAD_SHED_MAX_WAIT_MS: '0',
    // Tests make their own operator keys; the bootstrap key has tests of its own.
    OPERATOR_BOOTSTRAP: 'false',
    // Messages are queued with every change, but sent only by the tests of messages (MAIL_WORKER=true):
    // an invitation sent by a worker would open check-in sessions under other tests' feet.
    MAIL_WORKER: 'false',
    // With DATABASE_URL the service needs one issuer for the deployment (the config refuses otherwise).
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, PUBLIC_BASE_URL: 'https://innkeep.test' } : {}),
    ...(options.catalogFile ? { CATALOG_FILE: options.catalogFile } : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  const logs: string[] = [];
  const logger = createLogger(
    config.logLevel,
    new Writable({
      write(chunk, _enc, done) {
        logs.push(chunk.toString());
        done();
      },
    }),
  );
  // The same engine and database as DATABASE_URL above; the runtime migrates it.
  const db = await testFileDatabase(config.dbPoolSize, { migrate: false });
  const clock = new TestClock();
  const hotels = options.catalogFile
    ? undefined
    : parseCatalog({ hotels: options.hotels.length > 0 ? options.hotels : [makeHotel()] }).hotels;
  const runtime = await createRuntime(config, logger, {
    db: options.wrapDb ? options.wrapDb(db) : db,
    hotels,
    clock,
    payments: options.payments,
    schemaCompilers: sharedSchemaCompilers,
  });
  // Every answer a test receives is checked against the OpenAPI document (openapi-responses.ts).
  const checkResponse = openApiResponseChecker(runtime.app);
  return {
    app: runtime.app,
    runtime,
    db,
    clock,
    config,
    logs,
    async inject(opts) {
      const res = await runtime.app.inject(opts);
      checkResponse({
        method: typeof opts === 'string' ? 'GET' : (opts.method ?? 'GET'),
        url: typeof opts === 'string' ? opts : String(opts.url ?? opts.path ?? ''),
        status: res.statusCode,
        contentType: res.headers['content-type'] as string | undefined,
        headers: res.headers,
        body: res.body,
      });
      return res as never;
    },
    async close() {
      await runtime.close();
      await db.close();
    },
  };
}

/** A unique id, so tests sharing one database (one per test file, see test-database.ts) never see each other's hotels. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/** A small, fully specified hotel; override any part. Its id is unique per call. */
export function makeHotel(overrides: Partial<HotelDef> = {}): HotelDef {
  return testHotel({ id: uniqueId('hotel'), ...overrides });
}

/** A hotel-local date `days` from today in Europe/Lisbon-ish terms (UTC date is close enough for ≥2 days). */
export function daysFromNow(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
