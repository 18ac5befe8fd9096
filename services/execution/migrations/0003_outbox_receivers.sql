-- Results go to more than one receiver: the ratings service (every match not created casual)
-- and the matchmaking service (the matches it formed). One row per match and receiver, each
-- delivered, retried and parked on its own, so one receiver's outage never holds up the other.
-- Rows written before this migration were for ratings.
ALTER TABLE outbox ADD COLUMN receiver text COLLATE "C" NOT NULL DEFAULT 'ratings';
ALTER TABLE outbox ALTER COLUMN receiver DROP DEFAULT;
ALTER TABLE outbox DROP CONSTRAINT outbox_match_id_key;
ALTER TABLE outbox ADD CONSTRAINT outbox_match_receiver_key UNIQUE (match_id, receiver);

DROP INDEX outbox_undelivered;
CREATE INDEX outbox_undelivered ON outbox (receiver, id) INCLUDE (next_attempt_time)
  WHERE delivered_time IS NULL AND parked_time IS NULL;
