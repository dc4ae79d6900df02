-- Guest messages (API.md 10). The guest's language lives with the other guest details, in the
-- reservation's `guest`; reservations made before it existed were answered in English.
UPDATE reservations SET guest = guest || '{"language": "en"}'::jsonb WHERE NOT guest ? 'language';

-- The messages' outbox: a row is inserted by the transaction of the change that causes it (as
-- events are), and a worker of any process claims it once due (`send_after`, which also schedules
-- the check-in invitation days ahead), SKIP LOCKED plus a lease, as webhook deliveries are claimed.
-- `data` is what the message tells, as it stood at that change (what changed, the fee…): a retry
-- or a later change never alters a message already queued.
CREATE TABLE guest_messages (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id      text NOT NULL UNIQUE CHECK (public_id ~ '^msg_[0-9a-z]+$'),
  reservation_id bigint NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
  hotel_id       text NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('booking_confirmation', 'booking_modified',
                   'booking_cancelled', 'checkin_invitation', 'checkin_completed')),
  -- The scheduled invitation (at most one per reservation: "once"), as against one sent again by hand.
  automatic      boolean NOT NULL DEFAULT true,
  recipient      text NOT NULL,
  language       text NOT NULL CHECK (language IN ('en', 'es', 'pt')),
  data           jsonb NOT NULL,
  status         text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  send_after     timestamptz NOT NULL DEFAULT now(),
  attempts       integer NOT NULL DEFAULT 0,
  last_error     text,
  locked_until   timestamptz,
  claim          text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  sent_at        timestamptz
);
CREATE INDEX guest_messages_due ON guest_messages (send_after) WHERE status = 'queued';
CREATE INDEX guest_messages_of_reservation ON guest_messages (reservation_id, id);
CREATE UNIQUE INDEX guest_messages_one_invitation ON guest_messages (reservation_id)
  WHERE kind = 'checkin_invitation' AND automatic;
