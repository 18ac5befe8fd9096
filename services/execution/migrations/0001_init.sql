-- The execution service's tables (services/execution/match_store.h describes what they hold).
-- Names are unqualified: ApplyMigrations runs this with search_path set to the service's schema.
-- Times are timestamptz (microseconds); enums are the numbers of boneyard.v1's enums. Match ids
-- compare bytewise (COLLATE "C") whatever the database's locale: they are opaque hex, and the
-- list order (create_time, id) must not depend on the server.

-- One row per match: written when it is created and again when it ends (a live match's
-- sequence and update time live in memory; its events are the truth).
CREATE TABLE matches (
  id text COLLATE "C" PRIMARY KEY,
  game text NOT NULL,
  -- v1.Match.State: 1 ACTIVE, 2 FINISHED, 3 ABORTED.
  state smallint NOT NULL CHECK (state BETWEEN 1 AND 3),
  create_time timestamptz NOT NULL,
  update_time timestamptz NOT NULL,
  end_time timestamptz,
  -- CreateMatch's idempotency key; NULL when the request had none (NULLs never conflict).
  request_id text UNIQUE,
  request_digest bytea NOT NULL,
  -- The uint64 seed's bit pattern (seeds with the top bit set are negative here).
  seed bigint NOT NULL,
  -- The serialized v1.Match as created (state ACTIVE, sequence 0).
  match bytea NOT NULL,
  -- The serialized v1.MatchResult of a FINISHED match.
  result bytea,
  -- The operator's reason of an ABORTED match.
  abort_reason text,
  -- The engine's record (docs/records.md) of an ended match.
  record jsonb,
  -- The sequence of the match's last event, once it has ended; 0 before.
  last_sequence bigint NOT NULL DEFAULT 0,
  CHECK ((state = 1) = (end_time IS NULL))
);

-- ListMatches: newest first, keyset pagination on (create_time, id).
CREATE INDEX matches_by_create_time ON matches (create_time DESC, id DESC);
-- LoadActiveMatches (state = 1), and ListMatches filtered by state, in list order.
CREATE INDEX matches_by_state ON matches (state, create_time DESC, id DESC);

-- Seat tokens, one per player seat (built-in bots have none).
CREATE TABLE seat_tokens (
  token text PRIMARY KEY,
  match_id text COLLATE "C" NOT NULL REFERENCES matches (id),
  seat integer NOT NULL CHECK (seat >= 0),
  UNIQUE (match_id, seat)
);

-- Every match's event log: 1, 2, 3, ... per match. The hot table: group commits COPY
-- hundreds of rows at a time into it. It has no foreign key to matches on purpose: the check
-- is a trigger per row and measured at about twice the cost of a 500-event commit; rows are
-- only ever written for matches the same process created.
CREATE TABLE events (
  match_id text COLLATE "C" NOT NULL,
  sequence bigint NOT NULL CHECK (sequence > 0),
  -- -1 for an operator abort.
  seat integer NOT NULL,
  -- Canonical notation; '' for a forfeit or an abort.
  action text NOT NULL,
  -- v1.MatchEvent.Reason.
  reason smallint NOT NULL,
  round integer NOT NULL,
  message text NOT NULL,
  turn_start_time timestamptz NOT NULL,
  create_time timestamptz NOT NULL,
  PRIMARY KEY (match_id, sequence)
);

-- Results of FINISHED matches for the ratings service, written in the transaction that ends
-- the match and delivered (retried with backoff) until acknowledged.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  match_id text COLLATE "C" NOT NULL UNIQUE REFERENCES matches (id),
  -- The serialized v1.Match with its result, end_time and state FINISHED.
  payload bytea NOT NULL,
  created_time timestamptz NOT NULL,
  delivered_time timestamptz,
  -- Failed deliveries so far.
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_time timestamptz NOT NULL,
  last_error text
);

-- The dispatcher's question: what is undelivered, oldest first.
CREATE INDEX outbox_undelivered ON outbox (id) INCLUDE (next_attempt_time)
  WHERE delivered_time IS NULL;
