-- 0002: correspondence time controls.
-- Why: issue 9. A match may give each move a time limit; the running game keeps the deadline of the player to move and how many reminders were sent, so
-- a scheduler can resume after a restart and apply each reminder and timeout exactly once.
-- A paused game keeps the time that was left instead of a deadline (at most one of the two is
-- set). The pause lives on the game rather than the match so that every clock change is a
-- single-row write, guarded like a move by the game's version.

ALTER TABLE challenges ADD COLUMN time_per_move_seconds INTEGER
    CHECK (time_per_move_seconds IS NULL OR time_per_move_seconds > 0);
ALTER TABLE matches ADD COLUMN time_per_move_seconds INTEGER
    CHECK (time_per_move_seconds IS NULL OR time_per_move_seconds > 0);
ALTER TABLE games ADD COLUMN deadline_at TEXT;
ALTER TABLE games ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0
    CHECK (reminders_sent >= 0);
ALTER TABLE games ADD COLUMN time_left_seconds REAL
    CHECK (time_left_seconds IS NULL OR (time_left_seconds >= 0 AND deadline_at IS NULL));
ALTER TABLE games ADD COLUMN paused_at TEXT;

CREATE INDEX games_active_by_deadline
    ON games (deadline_at) WHERE status = 'active' AND deadline_at IS NOT NULL;
