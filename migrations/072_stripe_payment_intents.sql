-- The Stripe PaymentIntents Innkeep asked for (API.md section 4, issue 32.1): written when Stripe
-- answers the create call (or when that call's answer was lost: `intent_id` still unknown, found
-- again by the idempotency key the webhook recomputes), for the hotel and the basis (what the payment
-- is for: `quote/…`, `R7K3M9Q2X/checkin/…`) it was made for. Only a PaymentIntent recorded here is
-- ever recorded, refunded or told to a hotel from Stripe's webhook: metadata alone can be written by
-- any integration on the hotel's Stripe account.
CREATE TABLE stripe_payment_intents (
  hotel_id    text NOT NULL,
  charge_key  text NOT NULL,
  intent_id   text UNIQUE,
  basis       text NOT NULL,
  amount      bigint NOT NULL,
  currency    text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hotel_id, charge_key)
);
