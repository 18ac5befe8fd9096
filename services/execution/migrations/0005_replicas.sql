-- Execution replicas (docs/scaling.md): every process registers under a new epoch when it
-- starts and renews its lease on a short interval. A replica whose lease has lapsed is fenced
-- for good by whichever replica notices (fenced_time set): from then on none of its commits is
-- stored, and the others adopt its ACTIVE matches by replaying their logs. Times are the
-- database's clock (clock_timestamp()), never a replica's.
CREATE TABLE replicas (
  epoch bigserial PRIMARY KEY,
  -- For operators: the host or pod name.
  name text NOT NULL,
  -- host:port where clients reach it.
  address text NOT NULL,
  start_time timestamptz NOT NULL,
  lease_expires timestamptz NOT NULL,
  -- NULL while it may commit.
  fenced_time timestamptz
);

-- The replica (its epoch) that owns an ACTIVE match; NULL for matches stored without replicas
-- (before this migration, or by a store that never registered), which any replica may adopt.
ALTER TABLE matches ADD COLUMN owner_epoch bigint;
CREATE INDEX matches_active_by_owner ON matches (owner_epoch, create_time, id) WHERE state = 1;
