import type Stripe from 'stripe';
import { AppError } from '../infra/http/problems.ts';

/**
 * What a Stripe error means for the guest (API.md section 4, issue 32.2). A card's decline is the
 * guest's (`402 payment_failed`, with Stripe's reason, written for cardholders); everything else is
 * the service's: its own setup (a wrong or revoked key, a permission the key lacks, a request Stripe
 * refuses for the account), or Stripe not answering (connection, timeout, rate limit, Stripe's own
 * fault). Those answer `503 service_unavailable` in our words, never Stripe's, and are logged with the
 * request id by the error handler (the `stripe` member below: type, code, status and Stripe's
 * request id; Stripe's own message masks the key).
 */
type StripeFailure = Stripe.errors.StripeError;

/** Stripe refused the service's own credentials or account: retrying does not help until a human fixes it. */
const SETUP = new Set(['StripeAuthenticationError', 'StripePermissionError']);
/** Stripe did not answer, or not yet: the same request may succeed in a moment. */
const TRANSIENT = new Set([
  'StripeConnectionError',
  'StripeAPIError',
  'StripeRateLimitError',
  // The same payment still in flight in another request (same idempotency key).
  'StripeIdempotencyError',
]);

/** Stripe did not answer (or not yet): it may have acted on the request all the same. */
export const isTransient = (e: StripeFailure): boolean => TRANSIENT.has(e.type);

export function isStripeError(err: unknown): err is StripeFailure {
  const type = (err as { type?: unknown } | null)?.type;
  return typeof type === 'string' && type.startsWith('Stripe') && err instanceof Error;
}

/**
 * A refusal of the create call that is about the guest's payment (their PaymentMethod, or the
 * PaymentIntent they sent back), not about how the service asked: a decline for the guest.
 */
export function isGuestRefusal(e: StripeFailure): boolean {
  if (e.type === 'StripeCardError') return true;
  if (e.type !== 'StripeInvalidRequestError') return false;
  const code = e.code ?? '';
  return (
    e.param === 'payment_method' ||
    code.startsWith('payment_method_') ||
    code.startsWith('payment_intent_') ||
    code === 'amount_too_small' ||
    code === 'amount_too_large'
  );
}

/** What is logged of a Stripe error: never its raw answer, never the key (Stripe's message masks it). */
export function stripeLogFields(e: StripeFailure): Record<string, unknown> {
  return {
    type: e.type,
    code: e.code ?? null,
    statusCode: e.statusCode ?? null,
    stripeRequestId: e.requestId ?? null,
    // Named so that the log serialiser does not read this object as an error of its own.
    stripeMessage: e.message,
  };
}

/** The `503` a guest gets when Stripe's answer is the service's problem: nothing was booked or charged. */
export function stripeUnavailable(e: StripeFailure): AppError {
  const setup = !isTransient(e);
  const problem = new AppError(
    'service_unavailable',
    setup
      ? 'Payments cannot be taken at the moment; nothing was booked or charged. The fault is logged for the hotel.'
      : 'The payment service did not answer; nothing was booked. Try again with the same request.',
    setup ? {} : { headers: { 'Retry-After': '5' } },
  );
  const hint = SETUP.has(e.type)
    ? 'Stripe refused the service’s credentials: check STRIPE_SECRET_KEY and its permissions'
    : setup
      ? 'Stripe refused a request of the service: check the Stripe account’s settings'
      : 'Stripe did not answer';
  // Read by the error handler's log line (with the request id), never sent to the client.
  return Object.assign(problem, { stripe: { ...stripeLogFields(e), hint } });
}
