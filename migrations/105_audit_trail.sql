-- The audit trail (API.md 12): who changed what, written in the transaction of the change. It
-- replaces audit_log (005), whose rows (key changes, staff changes, guest register reads) are folded
-- in below. Sharded by hotel: hotel_id leads the primary key. An entry about several hotels or
-- every hotel (a key or an account reaching them) has hotel_id '' and lists them in hotel_ids.
CREATE TABLE audit_entries (
  hotel_id    text NOT NULL,
  id          text NOT NULL CHECK (id ~ '^aud_[0-9a-z]+$'),
  at          timestamptz NOT NULL,
  hotel_ids   text[],                         -- the hotels it concerns (who may read it); NULL = every hotel
  actor_type  text NOT NULL CHECK (actor_type IN ('staff', 'key', 'guest', 'channel', 'system')),
  actor_id    text NOT NULL,
  actor_name  text NOT NULL,
  action      text NOT NULL CHECK (action ~ '^[a-z_]+\.[a-z_]+$'),
  target_type text NOT NULL,
  target_id   text NOT NULL,
  changes     jsonb,                          -- { field: [before, after] }; never identity data
  details     jsonb,                          -- ids, dates and counts; never identity data
  request_id  text,
  PRIMARY KEY (hotel_id, id),
  CHECK (hotel_id = '' OR hotel_ids = ARRAY[hotel_id])
);
CREATE INDEX audit_entries_newest_first ON audit_entries (at DESC, id DESC);
CREATE INDEX audit_entries_hotel_newest_first ON audit_entries (hotel_id, at DESC, id DESC);
CREATE INDEX audit_entries_actor ON audit_entries (actor_id, at DESC);

INSERT INTO audit_entries (hotel_id, id, at, hotel_ids, actor_type, actor_id, actor_name, action,
                           target_type, target_id, changes, details, request_id)
SELECT CASE WHEN cardinality(a.hotel_ids) = 1 THEN a.hotel_ids[1] ELSE '' END,
       a.public_id,
       a.created_at,
       a.hotel_ids,
       CASE WHEN a.actor LIKE 'key\_%' THEN 'key' WHEN a.actor LIKE 'usr\_%' THEN 'staff' ELSE 'system' END,
       a.actor,
       COALESCE(k.name, s.name, CASE a.actor WHEN 'cli' THEN 'Command line'
                                             WHEN 'bootstrap' THEN 'First start' ELSE a.actor END),
       a.action,
       CASE WHEN a.details ? 'staffId' THEN 'staff'
            WHEN a.details ? 'keyId' THEN 'key'
            WHEN a.action = 'guest_register.read' THEN 'guest_register'
            ELSE split_part(a.action, '.', 1) END,
       COALESCE(a.details ->> 'staffId', a.details ->> 'keyId',
                CASE WHEN a.action = 'guest_register.read'
                     THEN (a.details ->> 'hotelId') || '/' || (a.details ->> 'date') END,
                a.public_id),
       a.details -> 'changes',
       NULLIF(a.details - 'changes' - 'staffId' - 'keyId', '{}'::jsonb),
       NULL
FROM audit_log a
LEFT JOIN operator_keys k ON k.public_id = a.actor
LEFT JOIN staff_accounts s ON s.public_id = a.actor;

DROP TABLE audit_log;
