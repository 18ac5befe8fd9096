-- Signed-in browsers, shared by every web replica (docs/web.md, docs/scaling.md): a browser
-- signed in on one replica is signed in on all, and stays signed in across restarts. The
-- table alone signs no one in: a session is found by the SHA-256 of its cookie's value, and
-- the credential the web app presents for it (a player's or the operator's token) is sealed
-- with a key derived from the operator token, which the database does not hold.
CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  role smallint NOT NULL,
  player_id text NOT NULL,
  display_name text NOT NULL,
  credential bytea NOT NULL,
  csrf_token text NOT NULL,
  actor text NOT NULL,
  last_used timestamptz NOT NULL
);
CREATE INDEX sessions_by_last_used ON sessions (last_used);
