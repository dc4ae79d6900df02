-- AlpineBits acknowledgements belong to the operator key and the client id that made them (API.md
-- 11.2): another key of the hotel sending OTA_NotifReport with the same X-AlpineBits-ClientID must
-- never hide a reservation from this one. The table is keyed by hotel, key (its public id), client
-- id and reservation. Acknowledgements made before were by client id alone: each is kept for every
-- key that could have made it (not revoked, with reservations:read, seeing the reservation's hotel;
-- for a client id `key:<id>`, the one key it names), so no PMS is sent again what it has stored.
CREATE TABLE alpinebits_key_acks (
  hotel_id        text NOT NULL,
  key_id          text NOT NULL CHECK (length(key_id) BETWEEN 1 AND 100),
  client_id       text NOT NULL CHECK (length(client_id) BETWEEN 1 AND 200),
  reservation_id  bigint NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
  sent_version    integer NOT NULL,
  acked_version   integer,
  acknowledged_at timestamptz,
  PRIMARY KEY (hotel_id, key_id, client_id, reservation_id)
);

INSERT INTO alpinebits_key_acks
  (hotel_id, key_id, client_id, reservation_id, sent_version, acked_version, acknowledged_at)
SELECT r.hotel_id, k.public_id, a.client_id, a.reservation_id, a.sent_version, a.acked_version,
       a.acknowledged_at
  FROM alpinebits_acks a
  JOIN reservations r ON r.id = a.reservation_id
  JOIN operator_keys k
    ON k.revoked_at IS NULL
   AND 'reservations:read' = ANY (k.scopes)
   AND (k.hotel_ids IS NULL OR r.hotel_id = ANY (k.hotel_ids))
 WHERE a.client_id NOT LIKE 'key:%' OR a.client_id = 'key:' || k.public_id;

DROP TABLE alpinebits_acks;
ALTER TABLE alpinebits_key_acks RENAME TO alpinebits_acks;
