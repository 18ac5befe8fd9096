-- Replicas sharing the work: hand-over on drain, and the load each reports.
-- A draining replica hands its ACTIVE matches to the live replicas before it exits
-- (docs/scaling.md): it sets each match's owner to the receiver and handed_from to its own
-- epoch, and fences itself, in one transaction. A receiver loads the matches handed to it at
-- its next look for matches to adopt (or at once when a client asks for one) and clears
-- handed_from.
ALTER TABLE matches ADD COLUMN handed_from bigint;
CREATE INDEX matches_handed_over ON matches (owner_epoch) WHERE handed_from IS NOT NULL;

-- Each replica's count of live matches, written at every renewal of its lease: where new
-- matches go (the least loaded replica, docs/scaling.md).
ALTER TABLE replicas ADD COLUMN live_matches bigint NOT NULL DEFAULT 0;
