-- The ratings service's tables (services/ratings/pg_rating_store.h describes how they are used).
-- Names are unqualified: ApplyMigrations runs this with search_path set to the service's schema.
-- Ids and game names compare bytewise (COLLATE "C"), so list orders do not depend on the
-- server's locale. Times are timestamptz (microseconds).

-- The model of each game: written the first time a game is rated (from the service's flags),
-- and by RerateGame. `kind` is v1.RatingModel.Kind.
CREATE TABLE models (
  game text COLLATE "C" PRIMARY KEY,
  kind smallint NOT NULL CHECK (kind BETWEEN 1 AND 5),
  mu double precision NOT NULL,
  sigma double precision NOT NULL CHECK (sigma > 0),
  beta double precision NOT NULL CHECK (beta > 0),
  kappa double precision NOT NULL CHECK (kappa >= 0),
  tau double precision NOT NULL CHECK (tau >= 0),
  limit_sigma boolean NOT NULL,
  update_time timestamptz NOT NULL
);

-- Applied results: the idempotency record of RecordResult (one row per match id, written in
-- the transaction that applies the result) and what RerateGame replays.
CREATE TABLE results (
  match_id text COLLATE "C" PRIMARY KEY,
  game text COLLATE "C" NOT NULL,
  end_time timestamptz NOT NULL,
  -- The canonical result (the serialized v1.Match holding only game, seats, result and
  -- end_time, deterministically): a repeat must equal it byte for byte.
  canonical bytea NOT NULL,
  -- The serialized v1.RecordResultRequest as received.
  request bytea NOT NULL,
  record_time timestamptz NOT NULL
);

-- RerateGame's replay order: match-finish order.
CREATE INDEX results_by_finish ON results (game, end_time, match_id);

-- Each player's current rating per game. Bots (no player id) have none.
CREATE TABLE ratings (
  game text COLLATE "C" NOT NULL,
  player_id text COLLATE "C" NOT NULL,
  mu double precision NOT NULL,
  sigma double precision NOT NULL,
  -- mu - 3 sigma, as the service computes it (the leaderboard's order).
  ordinal double precision NOT NULL,
  games_played integer NOT NULL CHECK (games_played > 0),
  update_time timestamptz NOT NULL,
  PRIMARY KEY (game, player_id)
);

-- The leaderboard: by ordinal, highest first, then by player id.
CREATE INDEX ratings_leaderboard ON ratings (game, ordinal DESC, player_id);

-- One row per rated player per applied match. `apply_seq` numbers applications (all rows of
-- one match share it): a player's history, newest first, is by apply_seq descending. Like
-- solitaire_results it has no foreign key to results: rows are only written in the transaction
-- that writes their result, and a per-row check trigger would cost the batches more than the
-- rest of their writes.
CREATE TABLE history (
  game text COLLATE "C" NOT NULL,
  player_id text COLLATE "C" NOT NULL,
  apply_seq bigint NOT NULL,
  match_id text COLLATE "C" NOT NULL,
  seat integer NOT NULL CHECK (seat >= 0),
  rank integer NOT NULL CHECK (rank >= 1),
  mu_before double precision NOT NULL,
  sigma_before double precision NOT NULL,
  mu_after double precision NOT NULL,
  sigma_after double precision NOT NULL,
  match_end_time timestamptz NOT NULL,
  PRIMARY KEY (player_id, game, apply_seq),
  UNIQUE (match_id, seat)
);

-- Numbers applications of results (history.apply_seq).
CREATE SEQUENCE apply_seq;

-- Solitaire (Castle Rock) results of players (built-in bots' games are not listed).
CREATE TABLE solitaire_results (
  match_id text COLLATE "C" PRIMARY KEY,
  game text COLLATE "C" NOT NULL,
  player_id text COLLATE "C" NOT NULL,
  tiles_left integer NOT NULL CHECK (tiles_left >= 0),
  pips_left integer NOT NULL CHECK (pips_left >= 0),
  duration_millis bigint NOT NULL CHECK (duration_millis >= 0),
  won boolean NOT NULL,
  end_time timestamptz NOT NULL
);

-- The all-results leaderboard, and each player's best (DISTINCT ON player_id).
CREATE INDEX solitaire_by_result
  ON solitaire_results (game, tiles_left, pips_left, duration_millis, match_id);
CREATE INDEX solitaire_by_player
  ON solitaire_results (game, player_id, tiles_left, pips_left, duration_millis, match_id);
