-- What the hotel's side records on a reservation (API.md 7.2 and 7.5).
ALTER TABLE reservations
  ADD COLUMN source         text NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'operator')),
  ADD COLUMN internal_notes text CHECK (length(internal_notes) <= 5000),
  ADD COLUMN stay_status    text NOT NULL DEFAULT 'expected'
                            CHECK (stay_status IN ('expected', 'in_house', 'checked_out', 'no_show')),
  ADD COLUMN arrived_at     timestamptz,
  ADD COLUMN departed_at    timestamptz,
  ADD COLUMN room_numbers   text[] NOT NULL DEFAULT '{}',
  -- Code, guest names and e-mail, lower-cased with accents stripped (NFD, combining marks removed)
  -- by the application on every write, so `q` matches "Joao" to "João" on both engines without
  -- the unaccent extension. Rows older than this migration get a best-effort fold below.
  ADD COLUMN search_text    text NOT NULL DEFAULT '';

UPDATE reservations SET search_text = translate(
  lower(code || ' ' || coalesce(guest ->> 'firstName', '') || ' ' || coalesce(guest ->> 'lastName', '')
        || ' ' || coalesce(guest ->> 'email', '')),
  'áàâãäåāéèêëēíìîïīóòôõöøōúùûüūçñýÿ', 'aaaaaaaeeeeeiiiiiooooooouuuuucnyy');

-- The operator list pages by (check-in date, code) within a hotel.
CREATE INDEX reservations_hotel_check_in_code ON reservations (hotel_id, check_in, code);
