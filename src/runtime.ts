import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import { quoteRepository } from './booking/quote.repository.ts';
import { applyCatalog } from './catalog/apply-catalog.ts';
import type { Hotel } from './catalog/catalog.schema.ts';
import { loadCatalogFile } from './catalog/catalog.validate.ts';
import { CatalogStore } from './catalog/catalog-store.ts';
import { startIcalPoller } from './channels/ical/ical-poller.ts';
import { openInvitationSession } from './checkin/commands/open-invitation.ts';
import { startIdentityPurge } from './checkin/identity-purge-job.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { startBalanceWorker } from './deposits/balance-worker.ts';
import { deliveryRepository } from './events/delivery.repository.ts';
import { feedRepository } from './events/feed.repository.ts';
import { startWebhookWorker, type WebhookWorker } from './events/webhook-worker.ts';
import { invoicePdfForMessage } from './folios/commands/invoice-pdf.ts';
import { nightsFollowCatalog } from './hotel-calendar/catalog-nights.ts';
import { type Clock, systemClock } from './infra/clock.ts';
import { type ControlChannel, startControlChannel } from './infra/control-channel.ts';
import { createEncryptor } from './infra/crypto/encryption.ts';
import { resolveEncryptionKey } from './infra/crypto/encryption-key.ts';
import { BackupRefusedError, writeBackup } from './infra/db/backup.ts';
import type { DataDirLock } from './infra/db/data-dir-lock.ts';
import type { Database } from './infra/db/database.ts';
import { migrate } from './infra/db/migrate.ts';
import { openDatabase } from './infra/db/open-database.ts';
import { type HousekeepingJob, startHousekeeping } from './infra/housekeeping.ts';
import type { SchemaCompilers } from './infra/http/schema-compilers.ts';
import { idempotencyRepository } from './infra/idempotency/idempotency.repository.ts';
import { projectFile } from './infra/project-files.ts';
import { startGuestMessages } from './messages/guest-messages.ts';
import { auditRetentionJob } from './operator-access/audit-retention.ts';
import { bootstrapOperatorKey } from './operator-access/bootstrap.ts';
import { runOperatorKeyCommand } from './operator-access/key-command-line.ts';
import { operatorKeyHasher } from './operator-access/key-secret.ts';
import { keysRepository } from './operator-access/keys.repository.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import { type PaymentWorker, startPaymentWorker } from './payments/payment-worker.ts';
import { createStripeClient } from './payments/stripe-client.ts';
import { createStripePaymentProvider } from './payments/stripe-provider.ts';
import { createTestPaymentProvider } from './payments/test-provider.ts';
import { keyringOf, SigningKeyStore } from './signing/signing-key-store.ts';
import { runStaffCommand } from './staff/staff-command-line.ts';
import { staffHousekeepingJobs } from './staff/staff-housekeeping.ts';

export const DEMO_CATALOG = projectFile('catalog/demo.json');

/** What outlives its purpose: idempotency keys past their 24 h, quotes expired a day ago unbooked. */
const HOUSEKEEPING: HousekeepingJob[] = [
  { name: 'idempotencyKeys', run: (db) => idempotencyRepository.deleteExpired(db) },
  { name: 'quotes', run: (db) => quoteRepository.deleteStale(db) },
  // Failure windows older than the operator authentication limit's longest window (≤ 7 days).
  {
    name: 'operatorAuthFailures',
    run: (db) => keysRepository.deleteEndedFailureWindows(db, new Date(Date.now() - 8 * 24 * 3600 * 1000)),
  },
];

/** Events (and webhook attempts) older than EVENT_RETENTION_DAYS; deliveries go with their event. */
function eventRetentionJobs(config: Config): HousekeepingJob[] {
  const horizon = () => new Date(Date.now() - config.eventRetentionDays * 24 * 3600 * 1000);
  return [
    { name: 'events', run: (db) => feedRepository.deleteOlderThan(db, horizon()) },
    { name: 'webhookAttempts', run: (db) => deliveryRepository.deleteAttemptsOlderThan(db, horizon()) },
  ];
}

export interface Runtime {
  app: FastifyInstance;
  db: Database;
  catalog: CatalogStore;
  /** Retries refunds and settles unmatched payments (tests run its passes themselves). */
  paymentWorker: PaymentWorker;
  close(): Promise<void>;
}

/**
 * Start-up in the order the contract asks: database, migrations, catalogue, then the app.
 * `hotels` overrides the catalogue file (tests); `db` lets tests share one engine.
 */
export async function createRuntime(
  config: Config,
  logger: Logger,
  overrides: {
    db?: Database;
    hotels?: Hotel[];
    clock?: Clock;
    payments?: PaymentProvider;
    /** Where a PostgreSQL deployment's bootstrap operator key is printed (default: standard error). */
    stderr?: NodeJS.WritableStream;
    /** The embedded DATA_DIR's lock, when the caller took it already (server.ts does, first). */
    dataDirLock?: DataDirLock;
    /** Fastify's schema compilers (tests share theirs across the apps of a process). */
    schemaCompilers?: SchemaCompilers;
  } = {},
): Promise<Runtime> {
  const clock = overrides.clock ?? systemClock;
  const db = overrides.db ?? (await openDatabase(config, { lock: overrides.dataDirLock }));
  try {
    const applied = await migrate(db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');

    let hotels = overrides.hotels;
    if (!hotels) {
      const file = config.catalogFile ?? DEMO_CATALOG;
      const loaded = await loadCatalogFile(file);
      for (const warning of loaded.warnings) logger.warn({ file }, `catalogue: ${warning}`);
      hotels = loaded.hotels;
      logger.info({ file, hotels: hotels.map((h) => h.id) }, 'catalogue loaded');
    }
    await applyCatalog(db, hotels, clock.now(), nightsFollowCatalog);
    const catalog = new CatalogStore(db, clock);
    await catalog.refresh();

    const dataKey = await resolveEncryptionKey(config);
    const encryptor = createEncryptor(dataKey);
    const signer = await SigningKeyStore.open({ db, encryptor, clock, keyring: keyringOf(dataKey) });
    if ((await signer.otherKeyrings()) > 0) {
      logger.warn(
        'signing keys wrapped by another DATA_ENCRYPTION_KEY exist: every process must share one key',
      );
    }
    const hash = operatorKeyHasher(dataKey);
    if (config.operatorBootstrap) {
      await bootstrapOperatorKey({
        db,
        hash,
        logger,
        dataDir: config.databaseUrl ? null : config.dataDir,
        stderr: overrides.stderr,
      });
    }
    // docs/api.md §4: the provider PAYMENT_PROVIDER names; its keys stay in the config, never logged.
    const stripe = config.stripe ? createStripeClient(config.stripe) : null;
    const payments =
      overrides.payments ??
      (stripe ? createStripePaymentProvider({ stripe, db, log: logger }) : createTestPaymentProvider());
    logger.info({ provider: payments.name }, 'payment provider');
    let appContext: AppContext | undefined;
    const app = await buildApp({
      onContext: (c) => {
        appContext = c;
      },
      operatorKeyHasher: hash,
      config,
      db,
      catalog,
      encryptor,
      signer,
      clock,
      logger,
      payments,
      stripe,
      schemaCompilers: overrides.schemaCompilers,
    });
    catalog.startAutoRefresh(5_000, logger);
    const housekeeping = startHousekeeping(db, logger, 15 * 60_000, [
      ...HOUSEKEEPING,
      ...eventRetentionJobs(config),
      ...staffHousekeepingJobs(clock, config.staffSessionIdleMinutes),
      auditRetentionJob(config.auditRetentionDays, clock),
    ]);
    const webhooks: WebhookWorker | null = config.webhookWorker
      ? startWebhookWorker({
          db,
          encryptor,
          logger,
          retryBaseSeconds: config.webhookRetryBaseSeconds,
          timeoutMs: config.webhookTimeoutMs,
          allowPrivate: config.webhookAllowPrivate,
          concurrency: config.webhookConcurrency,
          pollIntervalMs: config.webhookPollIntervalMs,
        })
      : null;
    const paymentWorker = startPaymentWorker({ db, payments, config, logger });
    signer.startAutoRefresh(logger);
    const shared = appContext as AppContext;
    const guestMessages = config.mailWorker
      ? await startGuestMessages(
          shared,
          logger,
          (code) => openInvitationSession({ ...shared, log: logger }, code),
          (hotelId, invoiceId, language) => invoicePdfForMessage(shared, hotelId, invoiceId, language),
        )
      : null;
    const identityPurge = startIdentityPurge({
      db,
      clock,
      logger,
      retentionDays: config.identityRetentionDays,
      intervalSeconds: config.purgeIntervalSeconds,
    });
    const icalPoller = config.icalWorker ? startIcalPoller(shared, logger) : null;
    // Deposit plans' balances, charged to the card on file when due (API.md 14.2).
    const balances = startBalanceWorker(shared, logger);
    // The embedded DATA_DIR is this process's alone: command lines ask it over a local socket.
    const control: ControlChannel | null = overrides.dataDirLock
      ? await startControlChannel(
          config.dataDir,
          {
            'operator-key': (args) =>
              runOperatorKeyCommand(
                { db, hash, knownHotel: (id) => catalog.get(id) !== undefined, now: () => clock.now() },
                args,
              ),
            staff: (args) => runStaffCommand({ db, config, catalog, encryptor, clock }, args),
            backup: async ([dest]) => {
              try {
                const files = await writeBackup(db, path.resolve(config.dataDir), dest ?? '');
                logger.info({ files }, 'backup written');
                return { code: 0, stdout: `backup written: ${files.join(', ')}\n`, stderr: '' };
              } catch (error) {
                if (
                  !(error instanceof BackupRefusedError) &&
                  (error as { code?: unknown }).code === undefined
                )
                  throw error;
                return { code: 1, stdout: '', stderr: `refused: ${(error as Error).message}\n` };
              }
            },
          },
          (err) => logger.warn({ err }, 'control channel'),
        )
      : null;
    return {
      app,
      db,
      catalog,
      paymentWorker,
      async close() {
        await control?.close();
        await catalog.stop();
        await paymentWorker.stop();
        await icalPoller?.stop();
        await balances.stop();
        await housekeeping.stop();
        // Attempts in flight finish (or are handed back after a grace) before the pool closes.
        await webhooks?.stop();
        await guestMessages?.stop();
        await signer.stop();
        await identityPurge.stop();
        await app.close();
        if (!overrides.db) await db.close();
      },
    };
  } catch (error) {
    if (!overrides.db) await db.close().catch(() => {});
    throw error;
  }
}
