-- Unqualified names: ApplyMigrations sets search_path to the schema being migrated.
CREATE TABLE players (
  id bigint PRIMARY KEY,
  name text NOT NULL UNIQUE
);
