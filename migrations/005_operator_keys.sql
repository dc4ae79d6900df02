-- Operator keys (API.md 7.1). The key itself is never stored: only an HMAC-SHA256 of it under a
-- secret derived from DATA_ENCRYPTION_KEY, looked up through the unique index on key_hash.
CREATE TABLE operator_keys (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id  text NOT NULL UNIQUE CHECK (public_id ~ '^key_[0-9a-z]+$'),
  name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  scopes     text[] NOT NULL CHECK (
               cardinality(scopes) > 0 AND scopes <@ ARRAY['reservations:read', 'reservations:write',
                 'guests:identity', 'inventory:read', 'inventory:write', 'webhooks:write', 'keys:write']),
  hotel_ids  text[],                          -- NULL = every hotel
  key_hash   bytea NOT NULL UNIQUE,
  created_by text NOT NULL,                   -- public id of the creating key, or 'cli' / 'bootstrap'
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- Failed operator authentications per client address (hashed), in fixed windows, shared by all
-- processes, like checkin_proof_failures.
CREATE TABLE operator_auth_failures (
  client_hash  bytea PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures     integer NOT NULL CHECK (failures >= 0)
);
CREATE INDEX operator_auth_failures_window ON operator_auth_failures (window_start);

-- What operators did that a hotel must be able to account for (key changes, guest register reads).
-- Never identity data: details hold ids, dates and counts only.
CREATE TABLE audit_log (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id  text NOT NULL UNIQUE,
  actor      text NOT NULL,                   -- public id of the acting key, or 'cli' / 'bootstrap'
  action     text NOT NULL,
  hotel_ids  text[],                          -- hotels the entry concerns; NULL = every hotel
  details    jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_newest_first ON audit_log (created_at DESC, public_id DESC);
