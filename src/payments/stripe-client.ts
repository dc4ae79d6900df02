import Stripe from 'stripe';
import type { StripeConfig } from '../config.ts';

/**
 * The official SDK, pointed at STRIPE_API_BASE when set (tests run a local server answering like
 * Stripe). Failed network calls are retried by the SDK with the same idempotency key.
 */
export function createStripeClient(config: StripeConfig): Stripe {
  const base = config.apiBase;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: config.timeoutMs,
    telemetry: false,
    appInfo: { name: 'Innkeep', url: 'https://innkeep.dev' },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}
