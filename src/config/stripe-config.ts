/** The Stripe settings of the configuration (docs/api.md §4, §6). */

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

/** The Stripe settings (docs/api.md §4): every key named when missing, none ever echoed back. */
export function stripeConfig(
  provider: 'test' | 'stripe',
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
