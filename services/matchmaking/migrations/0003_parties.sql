-- Parties. Names are unqualified: ApplyMigrations runs this with search_path set to the
-- service's schema. A player is in at most one party (the unique player_id of party_members);
-- members are ordered by `seq`, the order they joined in (the leader first).
CREATE TABLE parties (
  party_id text COLLATE "C" PRIMARY KEY,
  leader text COLLATE "C" NOT NULL REFERENCES players (player_id),
  invite_code text COLLATE "C" NOT NULL UNIQUE,
  create_time timestamptz NOT NULL
);
CREATE TABLE party_members (
  party_id text COLLATE "C" NOT NULL REFERENCES parties (party_id) ON DELETE CASCADE,
  player_id text COLLATE "C" NOT NULL UNIQUE REFERENCES players (player_id),
  seq bigserial NOT NULL,
  PRIMARY KEY (party_id, player_id)
);
