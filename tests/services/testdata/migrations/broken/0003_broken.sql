-- Creates a table, then fails: the whole file must roll back, table included.
CREATE TABLE tournaments (id bigint PRIMARY KEY);
INSERT INTO tournaments (id) VALUES (1);
INSERT INTO no_such_table (id) VALUES (1);
