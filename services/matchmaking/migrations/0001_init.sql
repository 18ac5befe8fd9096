-- The matchmaking service's tables (services/matchmaking/pg_matchmaking_store.h says how they
-- are used). Names are unqualified: ApplyMigrations runs this with search_path set to the
-- service's schema. Ids compare bytewise (COLLATE "C"), so list orders do not depend on the
-- server's locale.

-- Player accounts. `display_key` is the display name folded for uniqueness without regard to
-- case (the service folds it); `token_hash` is the SHA-256 of the player's token, which is
-- never stored. `kind` is v1.PlayerAccount.Kind.
CREATE TABLE players (
  player_id text COLLATE "C" PRIMARY KEY,
  display_name text NOT NULL,
  display_key text COLLATE "C" NOT NULL UNIQUE,
  kind smallint NOT NULL CHECK (kind IN (1, 2)),
  token_hash bytea NOT NULL UNIQUE,
  create_time timestamptz NOT NULL
);
