import { type Static, Type } from '@sinclair/typebox';

import { bool, decimal, int, oneOf, optionalText, text } from './read-env.ts';

const WEEK = 7 * 24 * 3600;
const KEY_HINT =
  "make one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"";

/** `DATA_ENCRYPTION_KEY`: the base64 of exactly 32 bytes (43 characters and optional padding). */
const ENCRYPTION_KEY = /^[A-Za-z0-9+/]{43}=*$/;

/**
 * The service's environment (API.md section 6), one property per variable: its type, default,
 * range and the line that refuses a bad value. The rules that join several variables are in
 * `loadConfig` (src/config.ts).
 */
export const EnvSchema = Type.Object({
  port: int('PORT', 3000, 0, 65535),
  host: text('HOST', '127.0.0.1'),
  databaseUrl: optionalText(
    'DATABASE_URL',
    'PostgreSQL; null = the embedded database',
    /^postgres(ql)?:\/\//,
    'DATABASE_URL must be a postgres:// or postgresql:// URL',
  ),
  dataDir: text('DATA_DIR', './data'),
  catalogFile: optionalText('CATALOG_FILE'),
  quoteTtlSeconds: int('QUOTE_TTL_SECONDS', 900, 1, WEEK),
  publicBaseUrl: optionalText('PUBLIC_BASE_URL'),
  dataEncryptionKey: optionalText(
    'DATA_ENCRYPTION_KEY',
    'base64 of 32 bytes; null = generate once into DATA_DIR (embedded only)',
    ENCRYPTION_KEY,
    `DATA_ENCRYPTION_KEY must be the base64 of exactly 32 random bytes; ${KEY_HINT}`,
  ),
  identityRetentionDays: int('IDENTITY_RETENTION_DAYS', 30, 0, 3650),
  purgeIntervalSeconds: int(
    'PURGE_INTERVAL_SECONDS',
    3600,
    1,
    WEEK,
    'how often the purge of identity data runs',
  ),
  rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 1200, 0, 10_000_000),
  operatorRateLimitPerMinute: int(
    'OPERATOR_RATE_LIMIT_PER_MINUTE',
    1200,
    0,
    10_000_000,
    'requests per minute per operator key on the operator API (its own counter); 0 = no limit',
  ),
  // It is compared with a bearer credential (RFC 6750: visible ASCII); a short one is guessable.
  metricsToken: optionalText(
    'METRICS_TOKEN',
    'bearer token `GET /metrics` requires; null = only loopback clients may read it',
    /^[\x21-\x7e]{16,}$/,
    'METRICS_TOKEN must be at least 16 visible ASCII characters (no spaces)',
  ),
  loadShedMaxEventLoopDelayMs: int(
    'LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS',
    1000,
    0,
    60_000,
    'mean event-loop delay (ms) above which requests get 503; 0 = off',
  ),
  loadShedMaxWaitMs: int(
    'LOAD_SHED_MAX_WAIT_MS',
    5000,
    0,
    600_000,
    'expected wait (ms) for database connections above which requests get 503; 0 = off',
  ),
  checkinProofLimit: int(
    'CHECKIN_PROOF_LIMIT',
    20,
    1,
    1_000_000,
    'failed check-in proofs allowed per (client address, reservation code) per window',
  ),
  checkinProofAddressLimit: int(
    'CHECKIN_PROOF_ADDRESS_LIMIT',
    200,
    1,
    1_000_000,
    'failed check-in proofs allowed per client address per window, whatever the code',
  ),
  checkinProofWindowSeconds: int('CHECKIN_PROOF_WINDOW_SECONDS', 900, 1, WEEK),
  operatorBootstrap: bool(
    'OPERATOR_BOOTSTRAP',
    true,
    'first start with no operator key at all: create one (API.md 7.1)',
    'OPERATOR_BOOTSTRAP must be true or false',
  ),
  operatorAuthFailureLimit: int(
    'OPERATOR_AUTH_FAILURE_LIMIT',
    20,
    1,
    1_000_000,
    'failed operator authentications per client address per window before 429',
  ),
  operatorAuthFailureWindowSeconds: int('OPERATOR_AUTH_FAILURE_WINDOW_SECONDS', 900, 1, WEEK),
  operatorKeyCacheSeconds: int(
    'OPERATOR_KEY_CACHE_SECONDS',
    5,
    0,
    60,
    'how long a process trusts a verified operator key without the database (revocation delay)',
  ),
  staffSessionIdleMinutes: int(
    'STAFF_SESSION_IDLE_MINUTES',
    720,
    1,
    7 * 24 * 60,
    'a staff session ends after this long without use (and 7 days after sign-in in any case)',
  ),
  auditRetentionDays: int(
    'AUDIT_RETENTION_DAYS',
    730,
    1,
    36500,
    'days entries of the audit trail are kept (API.md 12)',
  ),
  eventRetentionDays: int(
    'EVENT_RETENTION_DAYS',
    30,
    1,
    3650,
    'days events are kept in the feed (API.md 8.1)',
  ),
  webhookRetryBaseSeconds: decimal(
    'WEBHOOK_RETRY_BASE_SECONDS',
    60,
    0.001,
    3600,
    'scales the webhook retry schedule: 60 = 1 min, 5 min, 30 min, … as written in API.md 8.2',
  ),
  webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000, 'how long one webhook attempt may take'),
  webhookAllowPrivate: bool(
    'WEBHOOK_ALLOW_PRIVATE',
    false,
    'development and tests: webhooks may use http and reach private addresses',
  ),
  icalPollSeconds: int('ICAL_POLL_SECONDS', 300, 1, WEEK, 'how often each imported iCal feed is fetched'),
  icalWorker: bool(
    'ICAL_WORKER',
    true,
    'whether this process fetches imported iCal feeds (each import is fetched by one process)',
  ),
  webhookConcurrency: int(
    'WEBHOOK_CONCURRENCY',
    10,
    1,
    1000,
    'webhook attempts in flight at once per process',
  ),
  webhookPollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 500, 10, 60_000),
  webhookWorker: bool('WEBHOOK_WORKER', true, 'whether this process runs the webhook delivery worker'),
  balancePollIntervalMs: int(
    'BALANCE_POLL_INTERVAL_MS',
    30_000,
    10,
    3_600_000,
    'how often each process looks for deposit plans’ balances due (docs/api.md §13.2.2)',
  ),
  smtpUrl: optionalText(
    'SMTP_URL',
    'guest messages (API.md 10): smtp:// or smtps://; null = .eml files (embedded) or kept queued',
  ),
  smtpAllowPlaintext: bool(
    'SMTP_ALLOW_PLAINTEXT',
    false,
    'send over smtp:// without TLS when a server that is not on this host offers no STARTTLS (a trusted relay on a private network); by default such a server is refused, so no password or guest data crosses the network in clear',
  ),
  mailFrom: optionalText(
    'MAIL_FROM',
    'the From of guest messages; default Innkeep <no-reply@HOST of PUBLIC_BASE_URL>',
  ),
  mailRetryBaseSeconds: decimal('MAIL_RETRY_BASE_SECONDS', 60, 0.001, 3600),
  checkinInviteDays: int(
    'CHECKIN_INVITE_DAYS',
    3,
    0,
    365,
    'days before the check-in date the check-in invitation goes out (a hotel’s own setting wins)',
  ),
  checkinInviteTime: text(
    'CHECKIN_INVITE_TIME',
    '10:00',
    'hotel-local HH:MM at which invitations go out',
    /^([01]\d|2[0-3]):[0-5]\d$/,
    'CHECKIN_INVITE_TIME must be a time HH:MM (got "{got}")',
  ),
  mailWorker: bool('MAIL_WORKER', true, 'whether this process sends guest messages (each message goes once)'),
  mailTimeoutMs: int(
    'MAIL_TIMEOUT_MS',
    30_000,
    100,
    300_000,
    'how long one SMTP step may wait for the server; an attempt’s lease is 2 × this + 5 s',
  ),
  verifactuQrUrl: text(
    'VERIFACTU_QR_URL',
    'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR',
    'the address a VERI*FACTU invoice’s QR code points at (API.md 13): the agency’s, or its test one',
    /^https?:\/\/[^\s?#]+$/,
    'VERIFACTU_QR_URL must be an http(s) URL without a query (got "{got}")',
  ),
  dbPoolSize: int('DB_POOL_SIZE', 10, 1, 1000),
  redisUrl: optionalText('REDIS_URL'),
  logLevel: oneOf(
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    'info',
    'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  ),
  corsOrigins: optionalText('CORS_ORIGINS', 'comma-separated origins allowed to call the operator API'),
  trustProxy: optionalText(
    'TRUST_PROXY',
    'which X-Forwarded-For hops to believe (src/config/trust-proxy.ts)',
  ),
  paymentProvider: oneOf(
    'PAYMENT_PROVIDER',
    ['test', 'stripe'],
    'test',
    'PAYMENT_PROVIDER must be test or stripe (got "{got}")',
  ),
  paymentWorkerIntervalMs: int(
    'PAYMENT_WORKER_INTERVAL_MS',
    30_000,
    10,
    3_600_000,
    'how often the payment worker retries refunds (and, with Stripe, settles unmatched payments)',
  ),
  refundRetryBaseSeconds: decimal(
    'REFUND_RETRY_BASE_SECONDS',
    60,
    0.001,
    3600,
    'scales the refund retry schedule: 60 = 1 min, 5 min, 25 min, …',
  ),
});

export type Env = Static<typeof EnvSchema>;

/** Variables that were replaced: silently ignoring an operator's setting would be worse than refusing it. */
export const REMOVED_VARIABLES: Record<string, string> = {
  LOAD_SHED_MAX_DB_QUEUE:
    'LOAD_SHED_MAX_DB_QUEUE was replaced by LOAD_SHED_MAX_WAIT_MS (the expected wait for a database ' +
    'connection, in ms, above which requests are shed; default 5000): remove it',
};

export { KEY_HINT };
