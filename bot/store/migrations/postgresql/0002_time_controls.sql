-- 0002: correspondence time controls.
-- PostgreSQL's version of the file of the same number one folder up (see that file for why):
-- Discord ids are BIGINT, row ids identity columns, REAL is DOUBLE PRECISION (SQLite's REAL
-- has 8 bytes), and there is no WITHOUT ROWID.

ALTER TABLE challenges ADD COLUMN time_per_move_seconds INTEGER
    CHECK (time_per_move_seconds IS NULL OR time_per_move_seconds > 0);
ALTER TABLE matches ADD COLUMN time_per_move_seconds INTEGER
    CHECK (time_per_move_seconds IS NULL OR time_per_move_seconds > 0);
ALTER TABLE games ADD COLUMN deadline_at TEXT;
ALTER TABLE games ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0
    CHECK (reminders_sent >= 0);
ALTER TABLE games ADD COLUMN time_left_seconds DOUBLE PRECISION
    CHECK (time_left_seconds IS NULL OR (time_left_seconds >= 0 AND deadline_at IS NULL));
ALTER TABLE games ADD COLUMN paused_at TEXT;

CREATE INDEX games_active_by_deadline
    ON games (deadline_at) WHERE status = 'active' AND deadline_at IS NOT NULL;
