-- 0006: a small key-value table for the bot's own bookkeeping.
-- Why: issue 15 (the first hour). `jarmo-bot run` publishes its slash commands by itself when
-- they differ from what it last published; it keeps a hash of that payload here, so that a
-- restart with the same commands publishes nothing.

CREATE TABLE bot_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
