-- Caps on guest messages (API.md 10, issue 32): a reservation's `booking_modified` at most 3 an
-- hour, and no address more than 10 messages a day from changes made by guests. Both are counted
-- from this table, in the transaction of the change (under an advisory lock per address, so the
-- count holds across processes). `by_guest`: the message comes of a guest's own request (booking,
-- change, cancellation through the public API), as against the hotel's or the schedule's.
ALTER TABLE guest_messages ADD COLUMN by_guest boolean NOT NULL DEFAULT false;
CREATE INDEX guest_messages_by_guest_to ON guest_messages (lower(recipient), created_at) WHERE by_guest;
CREATE INDEX guest_messages_modified ON guest_messages (reservation_id, created_at)
  WHERE kind = 'booking_modified';
