-- The Stripe PaymentIntents Innkeep asked for (API.md section 4, issue 32.1): written when Stripe
-- answers the create call (or when that call's answer was lost: `intent_id` still unknown, found
-- again by the idempotency key the webhook recomputes), for the hotel and the basis (what the payment
-- is for: `quote/…`, `R7K3M9Q2X/checkin/…`) it was made for. Only a PaymentIntent recorded here is
-- ever recorded, refunded or told to a hotel from Stripe's webhook: metadata alone can be written by
-- any integration on the hotel's Stripe account.
CREATE TABLE stripe_payment_intents (
  hotel_id    text NOT NULL,
  charge_key  text NOT NULL,
  intent_id   text,
  basis       text NOT NULL,
  amount      bigint NOT NULL,
  currency    text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hotel_id, charge_key),
  -- hotel_id in every key, so the table shards by hotel (Stripe's ids are unique anyway).
  UNIQUE (hotel_id, intent_id)
);
-- The webhook finds a record by Stripe's id alone (before it trusts the event's hotel).
CREATE INDEX stripe_payment_intents_intent ON stripe_payment_intents (intent_id);

-- A success Stripe reports before Innkeep's record of it is written (the create call's answer lost,
-- its webhook faster than the request's end) is noted with the idempotency key its own fields give;
-- the payment worker refunds it only if Innkeep's record names it by then, and settles it `foreign`
-- (never refunded) if not.
ALTER TABLE stripe_unmatched_intents ADD COLUMN charge_key text;
ALTER TABLE stripe_unmatched_intents DROP CONSTRAINT stripe_unmatched_intents_settlement_check;
ALTER TABLE stripe_unmatched_intents ADD CONSTRAINT stripe_unmatched_intents_settlement_check
  CHECK (settlement IN ('matched', 'refunded', 'failed', 'foreign'));
