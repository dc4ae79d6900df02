-- Issue 37: the daily cap on messages from guests' own requests (migration 075) is counted per
-- hotel, a hotel's guest asking that hotel for mail, so its count reads one hotel's rows (on Citus,
-- one shard). The index leads with the hotel, as the count names it.
CREATE INDEX guest_messages_by_guest_hotel_to ON guest_messages (hotel_id, lower(recipient), created_at) WHERE by_guest;
DROP INDEX guest_messages_by_guest_to;
