import { Type } from '@sinclair/typebox';

/** The schemas of `GET /payments/config` and Stripe's webhook: they validate, serialise and document. */

export const PaymentsConfig = Type.Object(
  {
    provider: Type.Union([Type.Literal('test'), Type.Literal('stripe')], {
      description:
        '`test`: send the test tokens of docs/api.md §4; `stripe`: take the card with Stripe Elements',
    }),
    publishableKey: Type.Optional(
      Type.String({
        description: 'With `stripe`: the key to load Stripe.js with (`Stripe(publishableKey)`)',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'PaymentsConfig',
    examples: [{ provider: 'stripe', publishableKey: 'pk_test_…' }],
  },
);

export const WebhookReceipt = Type.Object(
  {
    received: Type.Literal(true),
    outcome: Type.Union([Type.Literal('applied'), Type.Literal('duplicate'), Type.Literal('ignored')], {
      description:
        '`duplicate`: this event id was applied before; `ignored`: nothing to change, or a PaymentIntent Innkeep did not create',
    }),
  },
  { additionalProperties: false, title: 'StripeWebhookReceipt' },
);

/** Stripe signs each webhook delivery; the route reads the header itself, so a missing one is its `400`. */
export const StripeSignatureHeaders = Type.Object({ 'stripe-signature': Type.Optional(Type.String()) });
