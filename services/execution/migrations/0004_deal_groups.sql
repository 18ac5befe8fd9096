-- Duplicate rounds (issue 22): matches that share their deals form a deal group, named as in
-- CreateMatchRequest.deal_group. A match of a group shows its record and spectator view only
-- once every match of the group is stored and none is ACTIVE; this column and its index answer
-- that question in one lookup, whichever replica asks. NULL for the matches of no group.
ALTER TABLE matches ADD COLUMN deal_group text COLLATE "C";
CREATE INDEX matches_by_deal_group ON matches (deal_group, state) WHERE deal_group IS NOT NULL;
