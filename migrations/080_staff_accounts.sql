-- Staff accounts (API.md 12): people sign in; machines keep operator keys (005).
-- An account is a person across hotels, so it carries no hotel_id; the hotels it may act for are
-- rows of staff_hotels, one per (hotel, account), unless every_hotel (as a key's NULL hotel_ids).
CREATE TABLE staff_accounts (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id     text NOT NULL UNIQUE CHECK (public_id ~ '^usr_[0-9a-z]+$'),
  email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  role          text NOT NULL CHECK (role IN ('owner', 'manager', 'front_desk', 'accountant')),
  every_hotel   boolean NOT NULL,
  status        text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'active', 'disabled')),
  language      text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'es', 'pt')),
  password_hash text,                          -- Argon2id (PHC string); NULL until the invitation is accepted
  created_by    text NOT NULL,                 -- public id of the inviting account or key, or 'cli'
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
-- E-mail addresses are matched without regard to case.
CREATE UNIQUE INDEX staff_accounts_email ON staff_accounts (lower(email));

CREATE TABLE staff_hotels (
  hotel_id text NOT NULL,
  staff_id bigint NOT NULL REFERENCES staff_accounts (id) ON DELETE CASCADE,
  PRIMARY KEY (hotel_id, staff_id)
);
CREATE INDEX staff_hotels_of_staff ON staff_hotels (staff_id);

-- Invitation and password-reset tokens: only their SHA-256, single use (used_at), short-lived.
CREATE TABLE staff_tokens (
  token_hash bytea PRIMARY KEY,
  staff_id   bigint NOT NULL REFERENCES staff_accounts (id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('invitation', 'password_reset')),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX staff_tokens_of_staff ON staff_tokens (staff_id);

-- Browser sessions: only the SHA-256 of the cookie's secret. Every request reads its row, so a
-- sign-out (row deleted) or a disabled account is seen by every process at once.
CREATE TABLE staff_sessions (
  token_hash   bytea PRIMARY KEY,
  staff_id     bigint NOT NULL REFERENCES staff_accounts (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL          -- the absolute end (7 days after sign-in)
);
CREATE INDEX staff_sessions_of_staff ON staff_sessions (staff_id);
CREATE INDEX staff_sessions_expiry ON staff_sessions (expires_at);

-- Passkeys (WebAuthn credentials) of an account.
CREATE TABLE staff_passkeys (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id     text NOT NULL UNIQUE CHECK (public_id ~ '^pk_[0-9a-z]+$'),
  staff_id      bigint NOT NULL REFERENCES staff_accounts (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,          -- base64url, as WebAuthn names it
  public_key    bytea NOT NULL,
  counter       bigint NOT NULL DEFAULT 0,
  transports    text[] NOT NULL DEFAULT '{}',
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz
);
CREATE INDEX staff_passkeys_of_staff ON staff_passkeys (staff_id);

-- WebAuthn challenges: single use (deleted when used), five minutes.
CREATE TABLE webauthn_challenges (
  challenge  text PRIMARY KEY,
  purpose    text NOT NULL CHECK (purpose IN ('registration', 'authentication')),
  staff_id   bigint REFERENCES staff_accounts (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);

-- Failed sign-ins per e-mail address (hashed, lower case), in fixed windows, shared by all processes.
CREATE TABLE staff_sign_in_failures (
  client_hash  bytea PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures     integer NOT NULL CHECK (failures >= 0)
);
CREATE INDEX staff_sign_in_failures_window ON staff_sign_in_failures (window_start);

-- The new scopes (API.md 12) may be given to keys too.
ALTER TABLE operator_keys DROP CONSTRAINT operator_keys_scopes_check;
ALTER TABLE operator_keys ADD CONSTRAINT operator_keys_scopes_check CHECK (
  cardinality(scopes) > 0 AND scopes <@ ARRAY['reservations:read', 'reservations:write',
    'guests:identity', 'inventory:read', 'inventory:write', 'webhooks:write', 'keys:write',
    'staff:write', 'audit:read', 'folios:read', 'folios:write']);

-- Staff e-mails go through the guests' outbox (API.md 10): they belong to no reservation (and to
-- no hotel: hotel_id ''), and are never counted as a guest's messages.
ALTER TABLE guest_messages ALTER COLUMN reservation_id DROP NOT NULL;
ALTER TABLE guest_messages DROP CONSTRAINT guest_messages_kind_check;
ALTER TABLE guest_messages ADD CONSTRAINT guest_messages_kind_check CHECK (kind IN ('booking_confirmation',
  'booking_modified', 'booking_cancelled', 'checkin_invitation', 'checkin_completed',
  'staff_invitation', 'staff_password_reset'));
ALTER TABLE guest_messages ADD CONSTRAINT guest_messages_staff_without_reservation CHECK (
  (kind IN ('staff_invitation', 'staff_password_reset')) = (reservation_id IS NULL));
