-- Idempotency keys live in the database so a retry sent to another process sees the first attempt.
CREATE TABLE idempotency_keys (
  scope_hash   bytea PRIMARY KEY,           -- sha256(method, path, credential, key): no raw key stored
  request_hash bytea NOT NULL,              -- sha256 of the canonical request body
  state        text NOT NULL CHECK (state IN ('in_progress', 'done')),
  response     bytea,                       -- AES-256-GCM: responses can hold access tokens
  locked_until timestamptz NOT NULL,        -- an in-progress key whose process died is taken over after this
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
