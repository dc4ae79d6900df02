-- iCal imports (API.md 11.1): the URL's query string is often the platform's secret, so the URL is
-- kept encrypted (AES-256-GCM under DATA_ENCRYPTION_KEY, bound to the import's id) with its host,
-- the one part shown, and a keyed hash (HMAC under a key derived from DATA_ENCRYPTION_KEY) that
-- finds the same URL imported twice for a room type. SQL cannot encrypt: rows of before keep their
-- plain `url` until a process of this version starts and seals them (ical-poller.ts); until then
-- they are read as they are. Manual syncs are counted per import in a window of a minute.
ALTER TABLE ical_imports ALTER COLUMN url DROP NOT NULL;
ALTER TABLE ical_imports
  ADD COLUMN url_ciphertext bytea,
  ADD COLUMN url_hash bytea,
  ADD COLUMN url_host text CHECK (length(url_host) <= 300),
  ADD COLUMN sync_window_start timestamptz,
  ADD COLUMN sync_count integer NOT NULL DEFAULT 0;
ALTER TABLE ical_imports ADD CONSTRAINT ical_imports_url_kept CHECK (
  url IS NOT NULL OR (url_ciphertext IS NOT NULL AND url_hash IS NOT NULL AND url_host IS NOT NULL));
CREATE INDEX ical_imports_url_hash ON ical_imports (hotel_id, room_type_id, url_hash);
