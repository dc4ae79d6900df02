-- Payments with a real provider (API.md section 4, PAYMENT_PROVIDER=stripe).

-- A refund reaches the provider only after the change that causes it has committed, so its ledger
-- row is written first as `pending` and settled by the attempt after the commit (or, if that fails
-- or the process dies, by the refund worker's retries with backoff); `failed` rows are the ones a
-- human must settle, shown at the desk. `charge_ref` names the charge the refund goes back to.
-- `dispute` rows record a chargeback opened at the provider (the money is not moved by it).
ALTER TABLE payments ADD COLUMN status text NOT NULL DEFAULT 'succeeded'
  CHECK (status IN ('pending', 'succeeded', 'failed'));
ALTER TABLE payments ADD COLUMN charge_ref text;
ALTER TABLE payments ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN next_attempt_at timestamptz;
ALTER TABLE payments ADD COLUMN last_error text;
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check CHECK (kind IN ('charge', 'refund', 'dispute'));
-- A provider's payment pays for one thing only: a PaymentIntent sent back as a token after 3-D
-- Secure cannot pay a second reservation.
CREATE UNIQUE INDEX payments_one_charge_per_ref ON payments (provider, provider_ref) WHERE kind = 'charge';
CREATE INDEX payments_charge_ref ON payments (charge_ref) WHERE charge_ref IS NOT NULL;
CREATE INDEX payments_pending_refunds ON payments (next_attempt_at) WHERE status = 'pending';

-- Stripe PaymentIntents that succeeded without (yet) a ledger row: a request that failed or crashed
-- after Stripe charged, or a 3-D Secure payment whose guest never came back. A retry of the same
-- request finds the same PaymentIntent (same Stripe idempotency key) and settles it; the ones still
-- unmatched after a grace period are refunded by the worker.
CREATE TABLE stripe_unmatched_intents (
  intent_id   text PRIMARY KEY,
  hotel_id    text,
  reference   text NOT NULL,
  amount      bigint NOT NULL,
  currency    text NOT NULL,
  seen_at     timestamptz NOT NULL DEFAULT now(),
  settled_at  timestamptz,
  settlement  text CHECK (settlement IN ('matched', 'refunded', 'failed')),
  last_error  text
);
CREATE INDEX stripe_unmatched_open ON stripe_unmatched_intents (seen_at) WHERE settled_at IS NULL;

-- Stripe webhook events applied, by Stripe's event id: each is applied once however often it comes.
CREATE TABLE stripe_webhook_events (
  event_id    text PRIMARY KEY,
  type        text NOT NULL,
  object_id   text,
  received_at timestamptz NOT NULL DEFAULT now()
);
