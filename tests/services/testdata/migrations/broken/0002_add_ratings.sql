ALTER TABLE players ADD COLUMN rating double precision NOT NULL DEFAULT 25;
INSERT INTO players (id, name) VALUES (1, 'house bot');
