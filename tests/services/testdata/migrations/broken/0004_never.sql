-- Comes after a failing migration, so it must never be applied.
CREATE TABLE never (id bigint PRIMARY KEY);
