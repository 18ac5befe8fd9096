-- Finished matches' results, delivered by execution's outbox (RecordMatchResult) for the
-- players' histories: a serialized v1.MatchResult and the match's end.
ALTER TABLE formed_matches ADD COLUMN result bytea;
ALTER TABLE formed_matches ADD COLUMN end_time timestamptz;
CREATE UNIQUE INDEX formed_matches_by_name ON formed_matches (match_name)
  WHERE match_name IS NOT NULL;
