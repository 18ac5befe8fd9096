-- Results the receiver refuses for good (INVALID_ARGUMENT, FAILED_PRECONDITION, ALREADY_EXISTS:
-- the same delivery would fail again) are parked: kept with their last error for an operator,
-- and no longer retried.
ALTER TABLE outbox ADD COLUMN parked_time timestamptz;

DROP INDEX outbox_undelivered;
CREATE INDEX outbox_undelivered ON outbox (id) INCLUDE (next_attempt_time)
  WHERE delivered_time IS NULL AND parked_time IS NULL;
