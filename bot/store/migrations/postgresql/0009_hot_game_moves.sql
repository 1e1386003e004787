-- 0009: a move no longer writes to an index of the games table, and finds room in its own page.
-- PostgreSQL's version of the file of the same number one folder up (see that file for why the
-- index goes). A move's UPDATE can now be HOT (heap-only: no index entry written, the old row
-- version pruned within its page) when the page has room for the new version: a fill factor
-- of 70 keeps 30 % of each games page free for it. Pages written before this keep no room
-- until their rows move (a non-HOT update puts the new version on a page with room).
-- Timed games still change deadline_at, which the scheduler's index needs: their moves stay
-- non-HOT.

DROP INDEX games_active_by_activity;
ALTER TABLE games SET (fillfactor = 70);
