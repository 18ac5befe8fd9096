CREATE TABLE matches (
  id bigint PRIMARY KEY,
  winner bigint NOT NULL REFERENCES players (id)
);
INSERT INTO matches (id, winner) SELECT 1, id FROM players WHERE name = 'house bot';
