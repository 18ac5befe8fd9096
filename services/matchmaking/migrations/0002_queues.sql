-- Queues. Names are unqualified: ApplyMigrations runs this with search_path set to the
-- service's schema. `settings` is the serialized v1.Queue without its name and timestamps: the
-- service validates it as a whole (queue_settings.h), so the database keeps it as one value;
-- `game` is repeated as a column to list queues by game.
CREATE TABLE queues (
  queue_id text COLLATE "C" PRIMARY KEY,
  game text COLLATE "C" NOT NULL,
  settings bytea NOT NULL,
  create_time timestamptz NOT NULL,
  update_time timestamptz NOT NULL
);
CREATE INDEX queues_by_game ON queues (game, queue_id);
