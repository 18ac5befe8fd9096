-- Tournaments (issue 21; pg_tournament_store.h says how the tables are used). What is stored is
-- the event's facts: its settings, the entrants, each round's pairings as computed once under
-- the tournament's row lock, each game's request (re-sent unchanged until execution answers)
-- and its result as execution delivered it. Everything else (a pairing's outcome, standings)
-- is computed from these rows, so it is the same on every read and after every restart.
--
-- `version` goes up with every change of the event (a registration, a round, a game created,
-- a result, an override): what WatchTournament streams watch.
CREATE TABLE tournaments (
  tournament_id text COLLATE "C" PRIMARY KEY,
  game text COLLATE "C" NOT NULL,
  -- A serialized v1.Tournament: its settings, without its output-only fields.
  settings bytea NOT NULL,
  -- v1.Tournament.State.
  state smallint NOT NULL,
  current_round int NOT NULL DEFAULT 0,
  -- The rounds to play once started (Swiss, round robin); 0 for a knockout until it ends.
  rounds int NOT NULL DEFAULT 0,
  version bigint NOT NULL DEFAULT 1,
  create_time timestamptz NOT NULL,
  start_time timestamptz,
  end_time timestamptz
);
CREATE INDEX tournaments_running ON tournaments (tournament_id) WHERE state = 2;

-- Entrants by registration number. `players` is empty for a built-in bot (`bot`, a serialized
-- v1.Bot). `pairing_number` is set at the start (the initial ranking), and given anew when a
-- late entrant joins; `first_round` is the round an entrant is first paired in (1, or a late
-- entrant's); `withdrawn_round` is the first round the entrant is not paired in.
CREATE TABLE tournament_entrants (
  tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments ON DELETE CASCADE,
  number int NOT NULL,
  display_name text NOT NULL,
  players text[] NOT NULL,
  bot bytea,
  rating double precision NOT NULL,
  pairing_number int,
  first_round int,
  withdrawn_round int,
  bye_rounds int[] NOT NULL,
  register_time timestamptz NOT NULL,
  PRIMARY KEY (tournament_id, number)
);

-- A player is in an event once (as an entrant or in a team): the backstop of the service's check.
CREATE TABLE tournament_players (
  tournament_id text COLLATE "C" NOT NULL,
  player_id text COLLATE "C" NOT NULL,
  number int NOT NULL,
  PRIMARY KEY (tournament_id, player_id),
  FOREIGN KEY (tournament_id, number) REFERENCES tournament_entrants ON DELETE CASCADE
);

-- A round exists once paired: the primary key makes pairing a round twice impossible.
CREATE TABLE tournament_rounds (
  tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments ON DELETE CASCADE,
  round int NOT NULL,
  start_time timestamptz NOT NULL,
  PRIMARY KEY (tournament_id, round)
);

-- Boards: `black` 0 is the pairing-allocated bye. `override` is a v1.Outcome set by the
-- operator (SetResult, audited) or by the service for a withdrawn entrant's game; 0 when the
-- games decide. `tie` names a knockout tie ("" otherwise), `tie_id` its index in the bracket.
CREATE TABLE tournament_pairings (
  tournament_id text COLLATE "C" NOT NULL,
  round int NOT NULL,
  board int NOT NULL,
  white int NOT NULL,
  black int NOT NULL,
  tie text NOT NULL,
  tie_id int NOT NULL,
  override smallint NOT NULL DEFAULT 0,
  PRIMARY KEY (tournament_id, round, board),
  FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds ON DELETE CASCADE
);

-- A pairing's games. `request` is the serialized v1.CreateMatchRequest, whose request_id
-- (unique) is derived from the tournament, round, board and game: a resend after a crash can
-- only ever return the same match. `result` is the serialized v1.MatchResult execution
-- delivered, recorded once.
CREATE TABLE tournament_games (
  tournament_id text COLLATE "C" NOT NULL,
  round int NOT NULL,
  board int NOT NULL,
  game int NOT NULL,
  white_first boolean NOT NULL,
  request_id text COLLATE "C" NOT NULL UNIQUE,
  request bytea NOT NULL,
  match_name text COLLATE "C",
  execution_target text,
  seat_tokens text[],
  result bytea,
  end_time timestamptz,
  create_time timestamptz NOT NULL,
  PRIMARY KEY (tournament_id, round, board, game),
  FOREIGN KEY (tournament_id, round, board) REFERENCES tournament_pairings ON DELETE CASCADE
);
CREATE UNIQUE INDEX tournament_games_by_match ON tournament_games (match_name)
  WHERE match_name IS NOT NULL;
CREATE INDEX tournament_games_pending ON tournament_games (create_time) WHERE match_name IS NULL;

-- The operator's overrides and other decisions that are not the games', for the arbiter.
CREATE TABLE tournament_audit (
  id bigserial PRIMARY KEY,
  tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments ON DELETE CASCADE,
  time timestamptz NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  detail text NOT NULL
);
