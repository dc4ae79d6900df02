import { isIP } from 'node:net';
import path from 'node:path';

/** Service configuration (API.md section 6), read once from the environment and validated at start. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  catalogFile: string | null;
  quoteTtlSeconds: number;
  publicBaseUrl: string;
  /** base64 of 32 bytes; null = generate once into DATA_DIR (embedded only). */
  dataEncryptionKey: Buffer | null;
  identityRetentionDays: number;
  /** How often the in-process purge of identity data runs. */
  purgeIntervalSeconds: number;
  rateLimitPerMinute: number;
  /** Requests per minute per operator key on the operator API (its own counter); 0 = no limit. */
  operatorRateLimitPerMinute: number;
  /** Bearer token `GET /metrics` requires; null = only loopback clients may read it. */
  metricsToken: string | null;
  /** Load shedding: mean event-loop delay (ms) above which requests get 503; 0 = off. */
  loadShedMaxEventLoopDelayMs: number;
  /** Load shedding: expected wait (ms) for database connections above which requests get 503; 0 = off. */
  loadShedMaxWaitMs: number;
  /** Failed check-in proofs allowed per (client address, reservation code) per window. */
  checkinProofLimit: number;
  /** Failed check-in proofs allowed per client address per window, whatever the code. */
  checkinProofAddressLimit: number;
  checkinProofWindowSeconds: number;
  /** First start with no operator key at all: create one (API.md 7.1). */
  operatorBootstrap: boolean;
  /** Failed operator authentications per client address per window before 429. */
  operatorAuthFailureLimit: number;
  operatorAuthFailureWindowSeconds: number;
  /** How long a process trusts a verified operator key without the database (revocation delay). */
  operatorKeyCacheSeconds: number;
  /** Days events are kept in the feed (API.md 8.1). */
  eventRetentionDays: number;
  /** Scales the webhook retry schedule: 60 = 1 min, 5 min, 30 min, … as written in API.md 8.2. */
  webhookRetryBaseSeconds: number;
  /** How long one webhook attempt may take before it counts as failed. */
  webhookTimeoutMs: number;
  /** Development and tests: webhooks may use http and reach private addresses. */
  webhookAllowPrivate: boolean;
  /** How often each imported iCal feed is fetched (API.md 11.1). */
  icalPollSeconds: number;
  /** Webhook attempts in flight at once per process. */
  webhookConcurrency: number;
  /** How often the delivery worker looks for due deliveries. */
  webhookPollIntervalMs: number;
  /** Whether this process runs the webhook delivery worker. */
  webhookWorker: boolean;
  dbPoolSize: number;
  redisUrl: string | null;
  logLevel: string;
  corsOrigins: string[];
  /** Which `X-Forwarded-For` hops to believe: all, none, the nearest n, or proxies by address/CIDR. */
  trustProxy: TrustProxy;
  /** API.md section 4: `test` (deterministic, the default) or `stripe`. */
  paymentProvider: 'test' | 'stripe';
  /** How often the payment worker retries refunds (and, with Stripe, settles unmatched payments). */
  paymentWorkerIntervalMs: number;
  /** Scales the refund retry schedule: 60 = 1 min, 5 min, 25 min, … */
  refundRetryBaseSeconds: number;
  /** Set exactly when `paymentProvider` is `stripe`; its keys are secrets, never logged. */
  stripe: StripeConfig | null;
}

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** STRIPE_API_BASE: another server for the SDK to talk to (tests, a proxy); null = Stripe's. */
  apiBase: URL | null;
  /** Where the pages load Stripe.js from (STRIPE_JS_URL, for tests: a local stand-in). */
  jsUrl: string;
  /** Seconds a PaymentIntent that succeeded without a booking waits for its retry before it is refunded. */
  unmatchedRefundAfterSeconds: number;
  /** How long one call to Stripe may take (the SDK retries a failed one twice, same idempotency key). */
  timeoutMs: number;
}

/** Fastify's `trustProxy`, as far as TRUST_PROXY can set it (API.md section 6). */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: `true` / `false` (any case), a hop count, or a comma-separated list of proxy
 * addresses, CIDRs and proxy-addr's range names. Anything else is refused, never read as false:
 * a mistyped value would put every guest behind the load balancer on one address for rate limits.
 */
export function parseTrustProxy(raw: string | null): TrustProxy | { problem: string } {
  if (raw === null) return false;
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    return hops <= 100 ? hops : { problem: `TRUST_PROXY as a hop count must be 0 to 100 (got "${raw}")` };
  }
  const entries = raw.split(',').map((e) => e.trim());
  const bad = entries.filter((entry) => {
    if (PROXY_RANGE_NAMES.has(entry.toLowerCase())) return false;
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) return true;
    if (bits === undefined) return false;
    return !/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128);
  });
  if (bad.length > 0) {
    return {
      problem:
        'TRUST_PROXY must be true, false, a hop count (e.g. 1) or a comma-separated list of proxy ' +
        `addresses or CIDRs (e.g. 10.0.0.0/8,192.168.1.10); ${bad.map((b) => `"${b}"`).join(', ')} ` +
        `is none of these (got "${raw}")`,
    };
  }
  return entries.map((e) => (PROXY_RANGE_NAMES.has(e.toLowerCase()) ? e.toLowerCase() : e));
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const KEY_HINT =
  "make one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"";

/**
 * `requireEncryptionKey: false` is for tools that never touch encrypted data (`npm run migrate`):
 * they may run where the key is not provisioned. `requirePublicBaseUrl: false` is for tools that
 * neither sign nor link (the CLIs).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: { requireEncryptionKey?: boolean; requirePublicBaseUrl?: boolean } = {},
): Config {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const decimal = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+(\.\d+)?$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return fallback;
    if (raw !== 'true' && raw !== 'false') problems.push(`${name} must be true or false (got "${raw}")`);
    return raw === 'true';
  };
  const text = (name: string): string | null => {
    const raw = env[name]?.trim();
    return raw ? raw : null;
  };

  const port = int('PORT', 3000, 0, 65535);
  const host = text('HOST') ?? '127.0.0.1';
  const databaseUrl = text('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }

  let dataEncryptionKey: Buffer | null = null;
  const rawKey = text('DATA_ENCRYPTION_KEY');
  if (rawKey) {
    const key = Buffer.from(rawKey, 'base64');
    if (key.length !== 32 || !/^[A-Za-z0-9+/]+=*$/.test(rawKey)) {
      problems.push(`DATA_ENCRYPTION_KEY must be the base64 of exactly 32 random bytes; ${KEY_HINT}`);
    } else {
      dataEncryptionKey = key;
    }
  } else if (databaseUrl && options.requireEncryptionKey !== false) {
    problems.push(
      `DATA_ENCRYPTION_KEY is required with DATABASE_URL (every process must share it); ${KEY_HINT}`,
    );
  }

  // The default names this process's own port: right for the one embedded process, wrong for a
  // deployment of several, where each would sign check-in sessions with a different `iss` and a
  // client pinned to one issuer would refuse the others'. There, the operator must say it.
  if (databaseUrl && !text('PUBLIC_BASE_URL') && options.requirePublicBaseUrl !== false) {
    problems.push(
      'PUBLIC_BASE_URL is required with DATABASE_URL: it is the issuer (`iss`) of signed check-in ' +
        'sessions and the base of links, and every process of the deployment must share one; set it ' +
        'to the address clients use, e.g. PUBLIC_BASE_URL=https://booking.example.com',
    );
  }
  let publicBaseUrl = text('PUBLIC_BASE_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    publicBaseUrl = new URL(publicBaseUrl).toString().replace(/\/$/, '');
  } catch {
    problems.push(`PUBLIC_BASE_URL must be an absolute URL (got "${publicBaseUrl}")`);
  }

  const config: Config = {
    port,
    host,
    databaseUrl,
    dataDir: path.resolve(text('DATA_DIR') ?? './data'),
    catalogFile: text('CATALOG_FILE') ? path.resolve(text('CATALOG_FILE') as string) : null,
    quoteTtlSeconds: int('QUOTE_TTL_SECONDS', 900, 1, 7 * 24 * 3600),
    publicBaseUrl,
    dataEncryptionKey,
    identityRetentionDays: int('IDENTITY_RETENTION_DAYS', 30, 0, 3650),
    purgeIntervalSeconds: int('PURGE_INTERVAL_SECONDS', 3600, 1, 7 * 24 * 3600),
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 1200, 0, 10_000_000),
    operatorRateLimitPerMinute: int('OPERATOR_RATE_LIMIT_PER_MINUTE', 1200, 0, 10_000_000),
    metricsToken: text('METRICS_TOKEN'),
    loadShedMaxEventLoopDelayMs: int('LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    loadShedMaxWaitMs: int('LOAD_SHED_MAX_WAIT_MS', 5000, 0, 600_000),
    checkinProofLimit: int('CHECKIN_PROOF_LIMIT', 20, 1, 1_000_000),
    checkinProofAddressLimit: int('CHECKIN_PROOF_ADDRESS_LIMIT', 200, 1, 1_000_000),
    checkinProofWindowSeconds: int('CHECKIN_PROOF_WINDOW_SECONDS', 900, 1, 7 * 24 * 3600),
    operatorBootstrap: text('OPERATOR_BOOTSTRAP') !== 'false',
    operatorAuthFailureLimit: int('OPERATOR_AUTH_FAILURE_LIMIT', 20, 1, 1_000_000),
    operatorAuthFailureWindowSeconds: int('OPERATOR_AUTH_FAILURE_WINDOW_SECONDS', 900, 1, 7 * 24 * 3600),
    operatorKeyCacheSeconds: int('OPERATOR_KEY_CACHE_SECONDS', 5, 0, 60),
    eventRetentionDays: int('EVENT_RETENTION_DAYS', 30, 1, 3650),
    webhookRetryBaseSeconds: decimal('WEBHOOK_RETRY_BASE_SECONDS', 60, 0.001, 3600),
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    webhookAllowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', false),
    icalPollSeconds: int('ICAL_POLL_SECONDS', 300, 1, 7 * 24 * 3600),
    webhookConcurrency: int('WEBHOOK_CONCURRENCY', 10, 1, 1000),
    webhookPollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 500, 10, 60_000),
    webhookWorker: bool('WEBHOOK_WORKER', true),
    dbPoolSize: int('DB_POOL_SIZE', 10, 1, 1000),
    redisUrl: text('REDIS_URL'),
    logLevel: text('LOG_LEVEL') ?? 'info',
    corsOrigins: (text('CORS_ORIGINS') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: false,
    paymentProvider: text('PAYMENT_PROVIDER') === 'stripe' ? 'stripe' : 'test',
    paymentWorkerIntervalMs: int('PAYMENT_WORKER_INTERVAL_MS', 30_000, 10, 3_600_000),
    refundRetryBaseSeconds: decimal('REFUND_RETRY_BASE_SECONDS', 60, 0.001, 3600),
    stripe: null,
  };
  const trustProxy = parseTrustProxy(text('TRUST_PROXY'));
  if (typeof trustProxy === 'object' && !Array.isArray(trustProxy)) problems.push(trustProxy.problem);
  else config.trustProxy = trustProxy;
  const metricsToken = config.metricsToken;
  if (metricsToken !== null && (metricsToken.length < 16 || !/^[\x21-\x7e]+$/.test(metricsToken))) {
    // It is compared with a bearer credential (RFC 6750: visible ASCII); a short one is guessable.
    problems.push('METRICS_TOKEN must be at least 16 visible ASCII characters (no spaces)');
  }
  if (!['test', 'stripe', null].includes(text('PAYMENT_PROVIDER'))) {
    problems.push(`PAYMENT_PROVIDER must be test or stripe (got "${text('PAYMENT_PROVIDER')}")`);
  }
  if (text('LOAD_SHED_MAX_DB_QUEUE')) {
    // Silently ignoring an operator's setting would be worse than refusing it.
    problems.push(
      'LOAD_SHED_MAX_DB_QUEUE was replaced by LOAD_SHED_MAX_WAIT_MS (the expected wait for a database ' +
        'connection, in ms, above which requests are shed; default 5000): remove it',
    );
  }
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  if (!['true', 'false', null].includes(text('OPERATOR_BOOTSTRAP'))) {
    problems.push('OPERATOR_BOOTSTRAP must be true or false');
  }
  config.stripe = stripeConfig(config.paymentProvider, text, int, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The Stripe settings (API.md 4): every key named when missing, none ever echoed back. */
function stripeConfig(
  provider: Config['paymentProvider'],
  text: (name: string) => string | null,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): StripeConfig | null {
  if (provider !== 'stripe') return null;
  const keys = {
    STRIPE_SECRET_KEY: /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/,
    STRIPE_PUBLISHABLE_KEY: /^pk_(test|live)_[A-Za-z0-9_]+$/,
    STRIPE_WEBHOOK_SECRET: /^whsec_[A-Za-z0-9_+/=]+$/,
  };
  for (const [name, shape] of Object.entries(keys)) {
    const value = text(name);
    if (!value) problems.push(`${name} is required with PAYMENT_PROVIDER=stripe (see docs/production.md)`);
    else if (!shape.test(value)) problems.push(`${name} does not look like a Stripe key of its kind`);
  }
  const secretKey = text('STRIPE_SECRET_KEY') ?? '';
  const publishableKey = text('STRIPE_PUBLISHABLE_KEY') ?? '';
  if (/^(sk|rk)_live_/.test(secretKey) !== publishableKey.startsWith('pk_live_') && publishableKey) {
    problems.push('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must both be test-mode keys or both live');
  }
  let apiBase: URL | null = null;
  const rawBase = text('STRIPE_API_BASE');
  if (rawBase) {
    try {
      apiBase = new URL(rawBase);
      if (!['http:', 'https:'].includes(apiBase.protocol)) throw new Error('protocol');
    } catch {
      problems.push(`STRIPE_API_BASE must be an http(s) URL (got "${rawBase}")`);
      apiBase = null;
    }
  }
  const jsUrl = text('STRIPE_JS_URL') ?? 'https://js.stripe.com/v3';
  if (!/^https?:\/\/[^/]+\//.test(`${jsUrl}/`)) problems.push(`STRIPE_JS_URL must be an http(s) URL`);
  return {
    secretKey,
    publishableKey,
    webhookSecret: text('STRIPE_WEBHOOK_SECRET') ?? '',
    apiBase,
    jsUrl,
    unmatchedRefundAfterSeconds: int('STRIPE_UNMATCHED_REFUND_AFTER_SECONDS', 3600, 1, 7 * 24 * 3600),
    timeoutMs: int('STRIPE_TIMEOUT_MS', 20_000, 100, 120_000),
  };
}
