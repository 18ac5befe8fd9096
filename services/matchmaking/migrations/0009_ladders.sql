-- Ladders (issue 23, ladder.proto): a ladder's settings, its members and their challenges.
CREATE TABLE ladders (
  ladder_id text COLLATE "C" PRIMARY KEY,
  game text COLLATE "C" NOT NULL,
  -- A serialized v1.Ladder, checked and completed (house bots' rating ids), without its name
  -- and create time.
  settings bytea NOT NULL,
  create_time timestamptz NOT NULL
);

CREATE TABLE ladder_members (
  ladder_id text COLLATE "C" NOT NULL REFERENCES ladders (ladder_id),
  player_id text COLLATE "C" NOT NULL REFERENCES players (player_id),
  rated_vs_bots boolean NOT NULL,
  -- A serialized v1.BotAcceptRules for a bot account; NULL for a person.
  accept bytea,
  join_time timestamptz NOT NULL,
  PRIMARY KEY (ladder_id, player_id)
);

-- Every change to a challenge takes the next number from this one row, under its row lock, so
-- that numbers are committed in order: a WatchEvents stream that has read up to N never later
-- finds a change numbered below N. (A sequence would hand out numbers in transaction start
-- order and let a slow transaction commit a smaller number after a larger one was read.) The
-- lock also makes the checks a challenge's decision reads — a bot's matches under way, its games
-- of the day — hold until it is written.
CREATE TABLE challenge_clock (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  sequence bigint NOT NULL
);
INSERT INTO challenge_clock (sequence) VALUES (0);

CREATE TABLE challenges (
  challenge_id text COLLATE "C" PRIMARY KEY,
  ladder_id text COLLATE "C" NOT NULL REFERENCES ladders (ladder_id),
  challenger text COLLATE "C" NOT NULL,
  -- A player id, or a house bot's rating id ("house:{ladder}:{bot}", which no player id can be).
  opponent text COLLATE "C" NOT NULL,
  rated boolean NOT NULL,
  -- Both sides bots: counted against the challenger's daily cap.
  bot_vs_bot boolean NOT NULL,
  state smallint NOT NULL,
  decline_reason text NOT NULL DEFAULT '',
  -- The serialized v1.CreateMatchRequest, fixed when accepted, so that a retry after execution
  -- was out of reach creates the same match (execution is idempotent on its request_id).
  match_request bytea,
  match_name text COLLATE "C",
  execution_target text,
  -- By seat: "players/{id}" or the house bot's name; and each player seat's token.
  seat_players text[],
  seat_tokens text[],
  result bytea,
  end_time timestamptz,
  sequence bigint NOT NULL,
  -- CreateChallenge's idempotency: unique per creator (the caller's player id, or the operator).
  creator text COLLATE "C" NOT NULL,
  request_id text COLLATE "C",
  request_digest bytea,
  create_time timestamptz NOT NULL,
  update_time timestamptz NOT NULL,
  UNIQUE (creator, request_id)
);
CREATE UNIQUE INDEX challenges_by_match ON challenges (match_name) WHERE match_name IS NOT NULL;
CREATE INDEX challenges_of_challenger ON challenges (challenger, sequence);
CREATE INDEX challenges_of_opponent ON challenges (opponent, sequence);
