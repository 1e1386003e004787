-- 0009: a move no longer writes to an index of the games table.
-- Why: issue 17 (cheaper moves). games_active_by_activity indexed last_activity, which every
-- move changes, so every move also wrote a new index entry (and, on PostgreSQL, could never be
-- a HOT update). Its only reader, `idle`, reads every active game at start-up (the computer's
-- catch-up), which the partial index on the active games' channels serves as well: the order
-- by last activity is a sort of the active rows, not a walk of this index.

DROP INDEX games_active_by_activity;
