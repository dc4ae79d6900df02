-- Issue 37: the event feed's horizon on Citus. On one server an event is published once its
-- transaction is older than every running one (events_feed_horizon(), migration 007). On Citus a
-- transaction that wrote two nodes commits in two phases: it PREPAREs on the workers, commits on the
-- coordinator (its xid leaves the running set there), and only then sends COMMIT PREPARED. In that
-- gap its event is below the horizon but not yet visible on its worker, and a reader could pass it.
-- The feed therefore also lists the transactions prepared on any node when it reads the horizon and
-- waits until those are resolved (src/events/feed.repository.ts). Without Citus there is nothing to
-- list and this returns an empty array.
CREATE FUNCTION events_feed_pending_commits() RETURNS text[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  pending text[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN ARRAY[]::text[];
  END IF;
  -- Dynamic, so the function is created where run_command_on_all_nodes does not exist.
  EXECUTE $q$
    SELECT coalesce(array_agg(gid), ARRAY[]::text[])
      FROM run_command_on_all_nodes(
             'SELECT coalesce(string_agg(gid, '' ''), '''') FROM pg_prepared_xacts WHERE database = current_database()'
           ) AS n,
           unnest(string_to_array(nullif(n.result, ''), ' ')) AS gid
     WHERE n.success
  $q$ INTO pending;
  RETURN pending;
END $$;
