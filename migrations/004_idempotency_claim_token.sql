-- The owner of an in-progress idempotency key is identified by a random token, not by its lock
-- time: two claims in the same clock tick must never look like the same owner.
ALTER TABLE idempotency_keys ADD COLUMN claim_token text;
