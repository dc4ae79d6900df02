-- Issue 37: on Citus, the event feed and its webhook deliveries live on the coordinator (local
-- tables, as on one PostgreSQL server), not sharded by hotel. An event's `xid` is the
-- coordinator's transaction and the feed publishes an event once that transaction is older than
-- every running one (events_feed_horizon(), migration 007). Sharded, an event row committed on a
-- worker at the second phase of a two-phase commit, after the coordinator's transaction had
-- ended: a reader could pass the horizon and miss it for good. Kept on the coordinator, the row
-- commits with the transaction whose xid it carries, so the feed's reasoning is one server's again.
-- Deliveries stay with their events (they are made in the same statement and refer to them).
-- Without Citus this changes nothing.
DO $$
DECLARE
  moved text[] := ARRAY['events', 'webhook_deliveries'];
  fk record;
  keys text[][] := ARRAY[]::text[][];
  t text;
  identity_column text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN;
  END IF;
  SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
  -- Their foreign keys set aside first (a key between a local and a distributed table is refused),
  -- made again at the end: a key from a local table to a reference table makes it a Citus-managed
  -- local table, still on the coordinator.
  FOR fk IN
    SELECT c.conrelid::regclass::text AS tbl, c.conname, pg_get_constraintdef(c.oid) AS def
      FROM pg_constraint c
     WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
       AND (c.conrelid::regclass::text = ANY (moved) OR c.confrelid::regclass::text = ANY (moved))
  LOOP
    keys := keys || ARRAY[[fk.tbl, fk.conname, fk.def]];
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', fk.tbl, fk.conname);
  END LOOP;
  -- undistribute_table refuses tables with an identity column: each table is made again, local,
  -- with the same columns, defaults, identity, keys and indexes, its rows copied and its identity
  -- moved past them.
  FOREACH t IN ARRAY moved LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', t, t || '_sharded');
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING ALL)', t, t || '_sharded');
    EXECUTE format('INSERT INTO %I OVERRIDING SYSTEM VALUE SELECT * FROM %I', t, t || '_sharded');
    SELECT a.attname INTO identity_column FROM pg_attribute a
     WHERE a.attrelid = t::regclass AND a.attidentity <> '' AND NOT a.attisdropped;
    EXECUTE format('SELECT setval(pg_get_serial_sequence(%L, %L), coalesce(max(%I), 0) + 1, false) FROM %I',
                   t, identity_column, identity_column, t);
    EXECUTE format('DROP TABLE %I', t || '_sharded');
  END LOOP;
  FOR i IN 1 .. coalesce(array_length(keys, 1), 0) LOOP
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I %s', keys[i][1], keys[i][2], keys[i][3]);
  END LOOP;
END $$;
