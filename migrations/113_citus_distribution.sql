-- Issue 37: on Citus (the `citus` extension present in this database), shard the per-hotel tables
-- by hotel_id, all co-located, so everything a hotel does stays on one shard; make the tables the
-- per-hotel ones refer to reference tables (a copy on every node); keep the rest local to the
-- coordinator (keys, staff, rate-limit counters, idempotency, the audit log, schema_migrations).
-- Without the extension (PGlite, one PostgreSQL server) this migration changes nothing but the
-- two helper functions below, which do nothing there either.
--
-- A later migration that creates a per-hotel table (hotel_id in every key, see docs/production.md)
-- ends with `SELECT innkeep_shard_by_hotel('the_table')`, and a catalogue-level one that per-hotel
-- tables refer to with `SELECT innkeep_reference_table('the_table')`.

CREATE FUNCTION innkeep_shard_by_hotel(table_name text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    -- Every table sharded by hotel_id lands in one co-location group (same shard count, same
    -- column type): a hotel's rows of every table share a node, and joins on hotel_id stay there.
    EXECUTE format('SELECT create_distributed_table(%L, %L, colocate_with => %L)',
                   table_name, 'hotel_id',
                   CASE WHEN table_name = 'room_types' THEN 'default' ELSE 'room_types' END);
  END IF;
END $$;

CREATE FUNCTION innkeep_reference_table(table_name text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    EXECUTE format('SELECT create_reference_table(%L)', table_name);
  END IF;
END $$;

-- The tables that exist now, all at once: Citus distributes a table only while no local table
-- refers to it, so the foreign keys between them are set aside, the tables distributed (reference
-- tables first, then the per-hotel ones, co-located), and the same keys made again.
DO $$
DECLARE
  reference_tables text[] := ARRAY['hotels', 'webhook_endpoints'];
  hotel_tables text[] := ARRAY['room_types', 'inventory', 'calendar_overrides', 'calendar_price_overrides',
    'channel_nights', 'channel_rate_plans', 'quotes', 'reservations', 'payments', 'checkin_sessions',
    'checkin_steps', 'events', 'webhook_deliveries', 'guest_messages', 'ical_feeds', 'ical_imports',
    'ical_holds', 'alpinebits_acks', 'stripe_payment_intents', 'folio_lines', 'folio_payments',
    'invoice_counters', 'invoices', 'invoice_lines', 'verifactu_chain_heads', 'verifactu_records', 'invoice_series'];
  fk record;
  keys text[][] := ARRAY[]::text[][];
  t text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN;
  END IF;
  -- One connection per node for the whole migration's transaction.
  SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
  FOR fk IN
    SELECT c.conrelid::regclass::text AS tbl, c.conname, pg_get_constraintdef(c.oid) AS def
      FROM pg_constraint c
     WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
       AND (c.conrelid::regclass::text = ANY (reference_tables || hotel_tables)
            OR c.confrelid::regclass::text = ANY (reference_tables || hotel_tables))
  LOOP
    keys := keys || ARRAY[[fk.tbl, fk.conname, fk.def]];
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', fk.tbl, fk.conname);
  END LOOP;
  FOREACH t IN ARRAY reference_tables LOOP
    PERFORM innkeep_reference_table(t);
  END LOOP;
  FOREACH t IN ARRAY hotel_tables LOOP
    PERFORM innkeep_shard_by_hotel(t);
  END LOOP;
  FOR i IN 1 .. coalesce(array_length(keys, 1), 0) LOOP
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I %s', keys[i][1], keys[i][2], keys[i][3]);
  END LOOP;
END $$;

-- Reservation codes, sharded by the code itself (one shard per lookup by code), apart from the
-- hotels' co-location group.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    PERFORM create_distributed_table('reservation_codes', 'code', colocate_with => 'none');
  END IF;
END $$;
