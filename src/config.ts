import path from 'node:path';

import { type Env, EnvSchema, KEY_HINT, REMOVED_VARIABLES } from './config/env-schema.ts';
import { hostOf, mailProblems } from './config/mail-config.ts';
import { readEnv } from './config/read-env.ts';
import { type StripeConfig, stripeConfig } from './config/stripe-config.ts';
import { parseTrustProxy, type TrustProxy } from './config/trust-proxy.ts';

/**
 * Service configuration (API.md section 6), read once from the environment and validated at start.
 * Its fields are the environment schema's (src/config/env-schema.ts: type, default, range and
 * meaning of each variable), except these, which are derived from one or more variables.
 */
export type Config = Omit<
  Env,
  'publicBaseUrl' | 'dataEncryptionKey' | 'mailFrom' | 'corsOrigins' | 'trustProxy'
> & {
  /** `PUBLIC_BASE_URL` without its trailing slash; default `http://HOST:PORT`. */
  publicBaseUrl: string;
  /** The 32 bytes of `DATA_ENCRYPTION_KEY`; null = generate once into DATA_DIR (embedded only). */
  dataEncryptionKey: Buffer | null;
  /** The From of guest messages; default `Innkeep <no-reply@HOST of PUBLIC_BASE_URL>`. */
  mailFrom: string;
  corsOrigins: string[];
  /** Which `X-Forwarded-For` hops to believe: all, none, the nearest n, or proxies by address/CIDR. */
  trustProxy: TrustProxy;
  /** Set exactly when `paymentProvider` is `stripe`; its keys are secrets, never logged. */
  stripe: StripeConfig | null;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The environment checked against its schema, then the rules that join several variables.
 * `requireEncryptionKey: false` is for tools that never touch encrypted data (`npm run migrate`):
 * they may run where the key is not provisioned. `requirePublicBaseUrl: false` is for tools that
 * neither sign nor link (the CLIs).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: { requireEncryptionKey?: boolean; requirePublicBaseUrl?: boolean } = {},
): Config {
  const { values, problems } = readEnv(EnvSchema, env);
  const { databaseUrl, host, port } = values;

  if (databaseUrl && !values.dataEncryptionKey && options.requireEncryptionKey !== false) {
    problems.push(
      `DATA_ENCRYPTION_KEY is required with DATABASE_URL (every process must share it); ${KEY_HINT}`,
    );
  }
  // The default names this process's own port: right for the one embedded process, wrong for a
  // deployment of several, where each would sign check-in sessions with a different `iss` and a
  // client pinned to one issuer would refuse the others'. There, the operator must say it.
  if (databaseUrl && !values.publicBaseUrl && options.requirePublicBaseUrl !== false) {
    problems.push(
      'PUBLIC_BASE_URL is required with DATABASE_URL: it is the issuer (`iss`) of signed check-in ' +
        'sessions and the base of links, and every process of the deployment must share one; set it ' +
        'to the address clients use, e.g. PUBLIC_BASE_URL=https://booking.example.com',
    );
  }
  let publicBaseUrl = values.publicBaseUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    publicBaseUrl = new URL(publicBaseUrl).toString().replace(/\/$/, '');
  } catch {
    problems.push(`PUBLIC_BASE_URL must be an absolute URL (got "${publicBaseUrl}")`);
  }
  const mailFrom = values.mailFrom ?? `Innkeep <no-reply@${hostOf(publicBaseUrl)}>`;
  problems.push(...mailProblems({ smtpUrl: values.smtpUrl, mailFrom }));
  const trustProxy = parseTrustProxy(values.trustProxy);
  if (typeof trustProxy === 'object' && !Array.isArray(trustProxy)) problems.push(trustProxy.problem);
  for (const [name, problem] of Object.entries(REMOVED_VARIABLES))
    if (env[name]?.trim()) problems.push(problem);
  const stripe = values.paymentProvider === 'stripe' ? stripeConfig(env, problems) : null;
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    ...values,
    dataDir: path.resolve(values.dataDir),
    catalogFile: values.catalogFile ? path.resolve(values.catalogFile) : null,
    publicBaseUrl,
    dataEncryptionKey: values.dataEncryptionKey ? Buffer.from(values.dataEncryptionKey, 'base64') : null,
    mailFrom,
    corsOrigins: (values.corsOrigins ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: trustProxy as TrustProxy,
    stripe,
  };
}
