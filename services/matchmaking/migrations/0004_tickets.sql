-- Tickets, the matches formed from them, and who sits where. Names are unqualified:
-- ApplyMigrations runs this with search_path set to the service's schema.
--
-- A ticket's `state` is v1.Ticket.State, plus 5 (FORMING): claimed by a formed match whose
-- creation on execution is not yet confirmed. Clients see FORMING as SEARCHING; it can no
-- longer be cancelled. A player is on at most one live (SEARCHING or FORMING) ticket: the
-- partial unique index on ticket_players is the backstop behind the service's own check.
CREATE TABLE tickets (
  ticket_id text COLLATE "C" PRIMARY KEY,
  queue_id text COLLATE "C" NOT NULL,
  party_id text COLLATE "C",
  state smallint NOT NULL,
  -- The formed match (formed_matches.request_id) once claimed.
  match_request text COLLATE "C",
  -- CreateTicket's idempotency: unique per creator.
  creator text COLLATE "C" NOT NULL,
  request_id text COLLATE "C",
  request_digest bytea,
  create_time timestamptz NOT NULL,
  update_time timestamptz NOT NULL,
  UNIQUE (creator, request_id)
);
CREATE INDEX tickets_searching ON tickets (queue_id, create_time) WHERE state = 1;
CREATE INDEX tickets_of_party ON tickets (party_id) WHERE party_id IS NOT NULL;

CREATE TABLE ticket_players (
  ticket_id text COLLATE "C" NOT NULL REFERENCES tickets (ticket_id) ON DELETE CASCADE,
  position int NOT NULL,
  player_id text COLLATE "C" NOT NULL REFERENCES players (player_id),
  live boolean NOT NULL,
  PRIMARY KEY (ticket_id, position)
);
CREATE UNIQUE INDEX one_live_ticket_per_player ON ticket_players (player_id) WHERE live;

-- A match formed by a pass. It is written, with its tickets claimed, before execution is asked
-- to create it; `request` (a serialized v1.CreateMatchRequest whose request_id is derived from
-- the tickets) is re-sent unchanged until execution answers, so a crash or an outage can only
-- ever create the same match. `match_name` is set once created.
CREATE TABLE formed_matches (
  request_id text COLLATE "C" PRIMARY KEY,
  queue_id text COLLATE "C" NOT NULL,
  game text COLLATE "C" NOT NULL,
  request bytea NOT NULL,
  match_name text COLLATE "C",
  execution_target text COLLATE "C",
  create_time timestamptz NOT NULL
);
CREATE INDEX formed_matches_pending ON formed_matches (create_time) WHERE match_name IS NULL;

-- Every player's seat in a formed match: the ticket's assignments and the player's history.
-- The seat token is kept so that the player can read it again (GetTicket, WatchTicket).
CREATE TABLE seatings (
  request_id text COLLATE "C" NOT NULL REFERENCES formed_matches (request_id),
  seat int NOT NULL,
  ticket_id text COLLATE "C" NOT NULL REFERENCES tickets (ticket_id),
  player_id text COLLATE "C" NOT NULL,
  team int NOT NULL,
  win_chance double precision NOT NULL,
  bots int NOT NULL,
  seat_token text COLLATE "C",
  PRIMARY KEY (request_id, seat)
);
CREATE INDEX seatings_of_player ON seatings (player_id);
CREATE INDEX seatings_of_ticket ON seatings (ticket_id);
