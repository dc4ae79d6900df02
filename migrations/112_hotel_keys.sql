-- Issue 37: every table whose rows belong to a hotel has hotel_id in its primary key, in every
-- unique key and in every foreign key between such tables, so it can be sharded by hotel (Citus:
-- co-located tables, every key checked inside one shard). Rows and their identifiers stay as they
-- were: ids still come from their identity columns (unique across hotels), and what was looked up
-- by a random token or public id (hashes, `evt_`, `msg_`) keeps a plain index for that lookup.
-- Reservation codes stay unique across hotels through reservation_codes (one row per code).

-- Tables that lacked hotel_id get it, filled from the row they belong to.
ALTER TABLE payments ADD COLUMN hotel_id text;
UPDATE payments p SET hotel_id = r.hotel_id FROM reservations r WHERE r.id = p.reservation_id;
ALTER TABLE payments ALTER COLUMN hotel_id SET NOT NULL;

ALTER TABLE checkin_sessions ADD COLUMN hotel_id text;
UPDATE checkin_sessions s SET hotel_id = r.hotel_id FROM reservations r WHERE r.id = s.reservation_id;
ALTER TABLE checkin_sessions ALTER COLUMN hotel_id SET NOT NULL;

ALTER TABLE checkin_steps ADD COLUMN hotel_id text;
UPDATE checkin_steps t SET hotel_id = s.hotel_id FROM checkin_sessions s WHERE s.id = t.session_id;
ALTER TABLE checkin_steps ALTER COLUMN hotel_id SET NOT NULL;

ALTER TABLE webhook_deliveries ADD COLUMN hotel_id text;
UPDATE webhook_deliveries d SET hotel_id = e.hotel_id FROM events e WHERE e.position = d.event_position;
ALTER TABLE webhook_deliveries ALTER COLUMN hotel_id SET NOT NULL;

-- Foreign keys between per-hotel tables go, to come back with hotel_id below.
ALTER TABLE payments DROP CONSTRAINT payments_reservation_id_fkey;
ALTER TABLE checkin_sessions DROP CONSTRAINT checkin_sessions_reservation_id_fkey;
ALTER TABLE checkin_steps DROP CONSTRAINT checkin_steps_session_id_fkey;
ALTER TABLE guest_messages DROP CONSTRAINT guest_messages_reservation_id_fkey;
ALTER TABLE alpinebits_acks DROP CONSTRAINT alpinebits_key_acks_reservation_id_fkey;
ALTER TABLE folio_lines DROP CONSTRAINT folio_lines_reservation_id_fkey;
ALTER TABLE folio_payments DROP CONSTRAINT folio_payments_reservation_id_fkey;
ALTER TABLE invoices DROP CONSTRAINT invoices_reservation_id_fkey;
ALTER TABLE reservations DROP CONSTRAINT reservations_quote_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_position_fkey;
ALTER TABLE ical_holds DROP CONSTRAINT ical_holds_import_id_fkey;

-- Reservation codes: unique across hotels (a guest's lookup by code finds one reservation).
CREATE TABLE reservation_codes (
  code     text PRIMARY KEY,
  hotel_id text NOT NULL
);
INSERT INTO reservation_codes (code, hotel_id) SELECT code, hotel_id FROM reservations;

-- Keys widened with hotel_id.
ALTER TABLE quotes DROP CONSTRAINT quotes_pkey;
ALTER TABLE quotes ADD PRIMARY KEY (hotel_id, id);

ALTER TABLE reservations DROP CONSTRAINT reservations_pkey;
ALTER TABLE reservations ADD PRIMARY KEY (hotel_id, id);
CREATE INDEX reservations_id ON reservations (id);
ALTER TABLE reservations DROP CONSTRAINT reservations_code_key;
ALTER TABLE reservations ADD CONSTRAINT reservations_hotel_code_key UNIQUE (hotel_id, code);
CREATE INDEX reservations_code ON reservations (code);
ALTER TABLE reservations DROP CONSTRAINT reservations_access_token_hash_key;
ALTER TABLE reservations ADD CONSTRAINT reservations_hotel_access_token_hash_key UNIQUE (hotel_id, access_token_hash);
CREATE INDEX reservations_access_token_hash ON reservations (access_token_hash);
ALTER TABLE reservations DROP CONSTRAINT reservations_quote_id_key; -- its name kept: a conflict on it is quote_already_used
ALTER TABLE reservations ADD CONSTRAINT reservations_quote_id_key UNIQUE (hotel_id, quote_id);
ALTER TABLE reservations ADD CONSTRAINT reservations_quote_fkey
  FOREIGN KEY (hotel_id, quote_id) REFERENCES quotes (hotel_id, id);

ALTER TABLE payments DROP CONSTRAINT payments_pkey;
ALTER TABLE payments ADD PRIMARY KEY (hotel_id, id);
CREATE INDEX payments_id ON payments (id);
DROP INDEX payments_one_charge_per_ref;
CREATE UNIQUE INDEX payments_one_charge_per_ref ON payments (hotel_id, provider, provider_ref) WHERE kind = 'charge';
ALTER TABLE payments ADD CONSTRAINT payments_reservation_fkey
  FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id);

ALTER TABLE checkin_sessions DROP CONSTRAINT checkin_sessions_pkey;
ALTER TABLE checkin_sessions ADD PRIMARY KEY (hotel_id, id);
CREATE INDEX checkin_sessions_id ON checkin_sessions (id);
ALTER TABLE checkin_sessions DROP CONSTRAINT checkin_sessions_token_hash_key;
ALTER TABLE checkin_sessions ADD CONSTRAINT checkin_sessions_hotel_token_hash_key UNIQUE (hotel_id, token_hash);
CREATE INDEX checkin_sessions_token_hash ON checkin_sessions (token_hash);
ALTER TABLE checkin_sessions DROP CONSTRAINT checkin_sessions_reservation_id_key;
ALTER TABLE checkin_sessions ADD CONSTRAINT checkin_sessions_hotel_reservation_id_key UNIQUE (hotel_id, reservation_id);
ALTER TABLE checkin_sessions ADD CONSTRAINT checkin_sessions_reservation_fkey
  FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id);

ALTER TABLE checkin_steps DROP CONSTRAINT checkin_steps_pkey;
ALTER TABLE checkin_steps ADD PRIMARY KEY (hotel_id, session_id, name);
ALTER TABLE checkin_steps DROP CONSTRAINT checkin_steps_session_id_position_key;
ALTER TABLE checkin_steps ADD CONSTRAINT checkin_steps_hotel_session_position_key UNIQUE (hotel_id, session_id, position);
CREATE INDEX checkin_steps_session ON checkin_steps (session_id);
ALTER TABLE checkin_steps ADD CONSTRAINT checkin_steps_session_fkey
  FOREIGN KEY (hotel_id, session_id) REFERENCES checkin_sessions (hotel_id, id) ON DELETE CASCADE;

ALTER TABLE events DROP CONSTRAINT events_pkey;
ALTER TABLE events ADD PRIMARY KEY (hotel_id, position);
CREATE INDEX events_position ON events (position);
ALTER TABLE events DROP CONSTRAINT events_public_id_key;
ALTER TABLE events ADD CONSTRAINT events_hotel_public_id_key UNIQUE (hotel_id, public_id);
CREATE INDEX events_public_id ON events (public_id);

ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey;
ALTER TABLE webhook_deliveries ADD PRIMARY KEY (hotel_id, id);
CREATE INDEX webhook_deliveries_id ON webhook_deliveries (id);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_endpoint_id_event_position_key;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_hotel_endpoint_event_key
  UNIQUE (hotel_id, endpoint_id, event_position);
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_fkey
  FOREIGN KEY (hotel_id, event_position) REFERENCES events (hotel_id, position) ON DELETE CASCADE;

ALTER TABLE guest_messages DROP CONSTRAINT guest_messages_pkey;
ALTER TABLE guest_messages ADD PRIMARY KEY (hotel_id, id);
CREATE INDEX guest_messages_id ON guest_messages (id);
ALTER TABLE guest_messages DROP CONSTRAINT guest_messages_public_id_key;
ALTER TABLE guest_messages ADD CONSTRAINT guest_messages_hotel_public_id_key UNIQUE (hotel_id, public_id);
CREATE INDEX guest_messages_public_id ON guest_messages (public_id);
DROP INDEX guest_messages_one_invitation;
CREATE UNIQUE INDEX guest_messages_one_invitation ON guest_messages (hotel_id, reservation_id)
  WHERE kind = 'checkin_invitation' AND automatic;
ALTER TABLE guest_messages ADD CONSTRAINT guest_messages_reservation_fkey
  FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id) ON DELETE CASCADE;

ALTER TABLE ical_feeds DROP CONSTRAINT ical_feeds_pkey;
ALTER TABLE ical_feeds ADD PRIMARY KEY (hotel_id, id);
CREATE INDEX ical_feeds_id ON ical_feeds (id);
ALTER TABLE ical_feeds DROP CONSTRAINT ical_feeds_token_hash_key;
ALTER TABLE ical_feeds ADD CONSTRAINT ical_feeds_hotel_token_hash_key UNIQUE (hotel_id, token_hash);
CREATE INDEX ical_feeds_token_hash ON ical_feeds (token_hash);

ALTER TABLE ical_imports DROP CONSTRAINT ical_imports_pkey;
ALTER TABLE ical_imports ADD PRIMARY KEY (hotel_id, id);
CREATE INDEX ical_imports_id ON ical_imports (id);

ALTER TABLE ical_holds DROP CONSTRAINT ical_holds_pkey;
ALTER TABLE ical_holds ADD PRIMARY KEY (hotel_id, import_id, uid);
CREATE INDEX ical_holds_import ON ical_holds (import_id);
ALTER TABLE ical_holds ADD CONSTRAINT ical_holds_import_fkey
  FOREIGN KEY (hotel_id, import_id) REFERENCES ical_imports (hotel_id, id) ON DELETE CASCADE;

ALTER TABLE alpinebits_acks ADD CONSTRAINT alpinebits_acks_reservation_fkey
  FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id) ON DELETE CASCADE;
ALTER TABLE folio_lines ADD CONSTRAINT folio_lines_reservation_fkey
  FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id);
ALTER TABLE folio_payments ADD CONSTRAINT folio_payments_reservation_fkey
  FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id);
ALTER TABLE invoices ADD CONSTRAINT invoices_reservation_fkey
  FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id);

