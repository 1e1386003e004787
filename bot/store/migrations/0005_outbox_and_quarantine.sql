-- 0005: an outbox of announcements, and a quarantine for damaged games.
-- Why: issue 14 (hardening). A timeout, a reminder or the computer's move used to be posted
-- after its transaction committed: a bot that died in between never announced it. Now the
-- announcement is written in the same transaction as the change, and a delivery loop posts it
-- and marks it sent, resuming after a restart. `lease_until` keeps an entry with one deliverer
-- at a time (NULL: anyone may take it now). A game whose stored record cannot be loaded is
-- "damaged"; aborting it copies the row and its actions, exactly as they were, to
-- `quarantined_games` for the operator, then resets the game to an empty aborted one so the
-- channel and the match's standings work again.

CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL UNIQUE,  -- what happened, e.g. 'timeout:12': written once
    kind        TEXT    NOT NULL CHECK (kind IN ('reminder', 'timeout', 'computer_move')),
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    payload     TEXT    NOT NULL,  -- JSON: what the front end needs to rebuild the message
    status      TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dropped')),
    created_at  TEXT    NOT NULL,
    lease_until TEXT,
    attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error  TEXT,
    settled_at  TEXT
);
CREATE INDEX outbox_pending ON outbox (lease_until, id) WHERE status = 'pending';

CREATE TABLE quarantined_games (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id),
    reason         TEXT    NOT NULL,
    game_row       TEXT    NOT NULL,  -- JSON object: the games row as it was
    actions        TEXT    NOT NULL,  -- JSON array: its action rows as they were
    quarantined_at TEXT    NOT NULL
);
