import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type Stripe from 'stripe';
import type { Config } from '../config.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { AppError } from '../infra/http/problems.ts';
import { applyStripeEvent } from './commands/apply-stripe-event.ts';
import { PaymentsConfig, StripeSignatureHeaders, WebhookReceipt } from './payments.schemas.ts';

/**
 * `GET /api/v1/payments/config` (docs/api.md §4) and, with Stripe, `POST /api/v1/payments/stripe/webhook`.
 * The webhook reads its body raw (its own content-type parser, in this scope only): the signature
 * is over the bytes Stripe sent.
 */
export const paymentsRoutes: FastifyPluginAsyncTypebox<{
  /** The app's context (`payments/` sits below `context.ts`, so typed by the parts it uses). */
  ctx: { config: Config; db: Database; clock: Clock };
  stripe: Stripe | null;
}> = async (app, { ctx, stripe }) => {
  const { config, db, clock } = ctx;
  app.get(
    '/config',
    {
      schema: {
        operationId: 'getPaymentsConfig',
        tags: ['payments'],
        summary: 'Which payment provider clients pay with',
        description:
          'With `test`, payment tokens are the test provider’s (`tok_visa` …); with `stripe`, clients take the ' +
          'card with Stripe Elements (Stripe.js loaded with `publishableKey`) and send the PaymentMethod id ' +
          '(`pm_…`) as the token.',
        response: { 200: PaymentsConfig, ...problemResponses() },
      },
    },
    async () =>
      config.stripe
        ? { provider: 'stripe' as const, publishableKey: config.stripe.publishableKey }
        : { provider: 'test' as const },
  );

  if (!config.stripe || !stripe) return;
  const secret = config.stripe.webhookSecret;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post(
    '/stripe/webhook',
    {
      schema: {
        operationId: 'receiveStripeWebhook',
        tags: ['payments'],
        summary: 'Stripe’s webhook endpoint',
        description:
          'For Stripe only (register it in Stripe’s dashboard): `payment_intent.succeeded`, ' +
          '`payment_intent.payment_failed`, `charge.refunded` and `charge.dispute.created`, verified with ' +
          '`Stripe-Signature` (STRIPE_WEBHOOK_SECRET, Stripe’s default tolerance of 5 minutes) and applied to ' +
          'the payments ledger once per event id. Only PaymentIntents Innkeep created, for the hotel and ' +
          'payment their metadata names, are touched: an event about any other (another integration’s ' +
          'payment on the same Stripe account) is acknowledged with `outcome: "ignored"`, logged, never ' +
          'recorded nor refunded. A bad signature answers `400`.',
        headers: StripeSignatureHeaders,
        response: { 200: WebhookReceipt, ...problemResponses() },
      },
    },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        if (!Buffer.isBuffer(request.body) || typeof signature !== 'string') throw new Error('unsigned');
        event = stripe.webhooks.constructEvent(request.body, signature, secret);
      } catch {
        throw new AppError('validation_error', 'The Stripe-Signature header does not verify this payload.', {
          errors: [{ path: '/', message: 'signature does not match, or its timestamp is too old' }],
        });
      }
      const { outcome, foreign } = await applyStripeEvent(db, clock, event);
      const object = (event.data.object as { id?: string }).id;
      if (foreign)
        request.log.warn(
          { stripeEvent: event.id, type: event.type, object, outcome, foreign },
          'Stripe webhook about a PaymentIntent Innkeep did not create (or not yet known to be its own): acknowledged and ignored',
        );
      else request.log.info({ stripeEvent: event.id, type: event.type, outcome }, 'Stripe webhook');
      return { received: true as const, outcome };
    },
  );
};
