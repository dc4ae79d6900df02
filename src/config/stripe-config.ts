import { type Static, Type } from '@sinclair/typebox';

import { int, optionalText, readEnv, requiredText, text } from './read-env.ts';

/** The Stripe settings of the configuration (docs/api.md §4, §6), read only with PAYMENT_PROVIDER=stripe. */

const required = (env: string) => `${env} is required with PAYMENT_PROVIDER=stripe (see docs/production.md)`;
const misshapen = (env: string) => `${env} does not look like a Stripe key of its kind`;
const key = (env: string, shape: RegExp) => requiredText(env, shape, required(env), misshapen(env));

const StripeEnvSchema = Type.Object({
  secretKey: key('STRIPE_SECRET_KEY', /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/),
  publishableKey: key('STRIPE_PUBLISHABLE_KEY', /^pk_(test|live)_[A-Za-z0-9_]+$/),
  webhookSecret: key('STRIPE_WEBHOOK_SECRET', /^whsec_[A-Za-z0-9_+/=]+$/),
  apiBase: optionalText('STRIPE_API_BASE', 'another server for the SDK to talk to (tests, a proxy)'),
  jsUrl: text(
    'STRIPE_JS_URL',
    'https://js.stripe.com/v3',
    'where the pages load Stripe.js from (for tests: a local stand-in)',
    /^https?:\/\/[^/]/,
    'STRIPE_JS_URL must be an http(s) URL',
  ),
  unmatchedRefundAfterSeconds: int(
    'STRIPE_UNMATCHED_REFUND_AFTER_SECONDS',
    3600,
    1,
    7 * 24 * 3600,
    'seconds a PaymentIntent that succeeded without a booking waits for its retry before it is refunded',
  ),
  timeoutMs: int(
    'STRIPE_TIMEOUT_MS',
    20_000,
    100,
    120_000,
    'how long one call to Stripe may take (the SDK retries a failed one twice, same idempotency key)',
  ),
});

/** Its keys are secrets, never logged; `apiBase` null = Stripe's own servers. */
export type StripeConfig = Omit<Static<typeof StripeEnvSchema>, 'apiBase'> & { apiBase: URL | null };

/** The Stripe settings (docs/api.md §4): every key named when missing, none ever echoed back. */
export function stripeConfig(env: NodeJS.ProcessEnv, problems: string[]): StripeConfig {
  const { values, problems: own } = readEnv(StripeEnvSchema, env);
  problems.push(...own);
  const { secretKey, publishableKey } = values;
  if (publishableKey && /^(sk|rk)_live_/.test(secretKey ?? '') !== publishableKey.startsWith('pk_live_')) {
    problems.push('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must both be test-mode keys or both live');
  }
  let apiBase: URL | null = null;
  if (values.apiBase) {
    try {
      apiBase = new URL(values.apiBase);
      if (!['http:', 'https:'].includes(apiBase.protocol)) throw new Error('protocol');
    } catch {
      problems.push(`STRIPE_API_BASE must be an http(s) URL (got "${values.apiBase}")`);
      apiBase = null;
    }
  }
  return {
    ...values,
    secretKey: secretKey ?? '',
    publishableKey: publishableKey ?? '',
    webhookSecret: values.webhookSecret ?? '',
    apiBase,
  };
}
