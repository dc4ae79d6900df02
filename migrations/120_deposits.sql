-- Deposits, cards on file and balances (API.md 14.2, issue 38). The schedule itself (deposit and
-- balance, with their status) is kept with the priced stay in `reservations.stay` (`paymentSchedule`),
-- so every read of a reservation shows it; the tables below are the hotel's, hotel_id leading each key.

-- The card a guest left at booking a deposit plan, charged later without the guest (the balance, a
-- no-show fee): the test provider's token, or Stripe's Customer and PaymentMethod. Neither is card
-- data (the provider keeps that), and neither can be charged without the service's own keys.
CREATE TABLE cards_on_file (
  hotel_id        text NOT NULL REFERENCES hotels (id),
  reservation_id  bigint NOT NULL,
  provider        text NOT NULL,
  token           text NOT NULL,
  customer        text,
  brand           text,
  last4           text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hotel_id, reservation_id)
);

-- The balances to charge to the card on file, one per reservation while one is scheduled: the
-- claim worker (infra/outbox/claim-worker.ts) of every process claims the due ones (SKIP LOCKED and
-- a lease a dead process's claim outlives); the charge's own transaction, under the reservation's
-- row lock, deletes the row with the outcome, so a balance is charged once whatever races.
CREATE TABLE balance_charges (
  hotel_id        text NOT NULL REFERENCES hotels (id),
  reservation_id  bigint NOT NULL,
  due_at          timestamptz NOT NULL,
  locked_until    timestamptz,
  claim           text,
  attempts        integer NOT NULL DEFAULT 0,
  last_error      text,
  PRIMARY KEY (hotel_id, reservation_id)
);
CREATE INDEX balance_charges_due ON balance_charges (due_at);

-- The guest is asked to pay a refused balance (message kind `payment_request`, API.md 10 and 14.2).
-- `invoice` (API.md 13) is listed too, so this list holds whichever of the two migrations runs last.
ALTER TABLE guest_messages DROP CONSTRAINT guest_messages_kind_check;
ALTER TABLE guest_messages ADD CONSTRAINT guest_messages_kind_check CHECK (kind IN ('booking_confirmation',
  'booking_modified', 'booking_cancelled', 'checkin_invitation', 'checkin_completed',
  'staff_invitation', 'staff_password_reset', 'invoice', 'payment_request'));

-- On Citus (migration 113), the hotel's tables are sharded by hotel beside its reservations; elsewhere
-- this does nothing.
SELECT innkeep_shard_by_hotel('cards_on_file');
SELECT innkeep_shard_by_hotel('balance_charges');
-- After the sharding: Citus refuses a key from a table not yet distributed to a distributed one
-- (reservations), and both sides sharded by hotel keep the check inside one shard.
ALTER TABLE cards_on_file ADD FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id);
ALTER TABLE balance_charges ADD FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id);
