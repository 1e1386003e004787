-- 0006: a small key-value table for the bot's own bookkeeping.
-- PostgreSQL's version of the file of the same number one folder up (see that file for why):
-- Discord ids are BIGINT, row ids identity columns, REAL is DOUBLE PRECISION (SQLite's REAL
-- has 8 bytes), and there is no WITHOUT ROWID.

CREATE TABLE bot_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
