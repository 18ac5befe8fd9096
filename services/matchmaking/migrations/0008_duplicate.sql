-- Duplicate deals (issue 22): a duplicate event's secret, from which each round's seed is
-- derived (HMAC-SHA256, tournament_duplicate.h) so that a round's deals are fixed by what is
-- stored, yet unknown to anyone until the round is over and its seed is shown. NULL for the
-- events that are not duplicate.
ALTER TABLE tournaments ADD COLUMN deal_secret text;
