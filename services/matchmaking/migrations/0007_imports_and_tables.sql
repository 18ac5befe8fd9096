-- Imports and tables (issue 21).
-- Zero-point byes: an event imported from a TRF-16 file has 'Z' cells, rounds an entrant was
-- (or will be) absent from with no points. Rounds, as bye_rounds are.
ALTER TABLE tournament_entrants ADD COLUMN zero_rounds int[] NOT NULL DEFAULT '{}';
-- A round robin at tables (Tournament.table_size): a pairing is a table, its entrants in seat
-- order (white and black 0); one entrant alone sits the round out. Empty for two-sided boards.
ALTER TABLE tournament_pairings ADD COLUMN table_entrants int[] NOT NULL DEFAULT '{}';
