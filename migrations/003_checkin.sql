-- Ed25519 keys that sign check-in sessions. They live in the database so every process of a
-- deployment signs and verifies alike; private keys are encrypted with DATA_ENCRYPTION_KEY.
CREATE TABLE signing_keys (
  kid          text PRIMARY KEY,              -- RFC 7638 thumbprint of the public key
  keyring      text NOT NULL,                 -- fingerprint of the DATA_ENCRYPTION_KEY that wraps it
  public_jwk   jsonb NOT NULL,                -- { kty, crv, x }: what the JWKS publishes
  private_key  bytea NOT NULL,                -- PKCS#8 DER, AES-256-GCM
  created_at   timestamptz NOT NULL,
  retired_at   timestamptz,                   -- null for the current key
  signed_until timestamptz                    -- latest `exp` signed: a retired key stays published until then
);
-- At most one current key per keyring, whatever processes start or rotate at the same time. A
-- deployment has one keyring (its processes share DATA_ENCRYPTION_KEY).
CREATE UNIQUE INDEX signing_keys_one_current ON signing_keys (keyring) WHERE retired_at IS NULL;

-- One self check-in session per reservation. The public id (cks_…) is a bearer secret: only its
-- hash finds the row, and the id itself is kept encrypted so a guest who proves the reservation
-- again can be given the same session.
CREATE TABLE checkin_sessions (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash     bytea NOT NULL UNIQUE,       -- sha256 of the cks_… id
  token_secret   bytea NOT NULL,              -- the cks_… id, AES-256-GCM
  reservation_id bigint NOT NULL UNIQUE REFERENCES reservations (id),
  status         text NOT NULL CHECK (status IN ('open', 'completed')),
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  completed_at   timestamptz,
  CHECK ((status = 'completed') = (completed_at IS NOT NULL))
);

CREATE TABLE checkin_steps (
  session_id   bigint NOT NULL REFERENCES checkin_sessions (id) ON DELETE CASCADE,
  name         text NOT NULL
               CHECK (name IN ('guest_details', 'companions', 'identity_document', 'signature', 'payment')),
  position     smallint NOT NULL,
  status       text NOT NULL CHECK (status IN ('pending', 'completed', 'skipped')),
  required     boolean NOT NULL DEFAULT true,
  data         jsonb,                         -- what the session shows: the accepted data, secrets masked
  secret       bytea,                         -- AES-256-GCM: document number, drawn signature
  attachment   bytea,                         -- AES-256-GCM: document image
  submitted_at timestamptz,
  purged_at    timestamptz,                   -- identity data removed after the retention period
  PRIMARY KEY (session_id, name),
  UNIQUE (session_id, position)
);
CREATE INDEX checkin_steps_identity_to_purge ON checkin_steps (session_id)
  WHERE name = 'identity_document' AND purged_at IS NULL AND data IS NOT NULL;

-- Failed reservation proofs per client address (hashed), in fixed windows, shared by all processes.
CREATE TABLE checkin_proof_failures (
  client_hash  bytea PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures     integer NOT NULL CHECK (failures >= 0)
);
CREATE INDEX checkin_proof_failures_window ON checkin_proof_failures (window_start);
