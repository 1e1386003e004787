-- 0008: tournament posts go through the outbox, and a lease names the claim that holds it.
-- Why: issue 19 (tournaments: "survives a restart mid-round") and issue 17 (each job once
-- across processes). A round's post, each match's welcome in its thread and the final table
-- used to be posted after their transaction; a bot that stopped in between never posted them.
-- They are now outbox entries written with the round change, so `kind` takes three more
-- values and `game_id` may be NULL (a round or a table is about a tournament, not a game).
-- `lease_token` names the claim (or 'writer': the writer's own hold) that holds an entry:
-- a deliverer whose lease ran out and was claimed by another may no longer settle it.
-- SQLite cannot change a column's constraints in place, so the table is rebuilt (nothing
-- refers to it); PostgreSQL alters it instead (migrations/postgresql/).

CREATE TABLE outbox_0008 (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL UNIQUE,  -- what happened, e.g. 'timeout:12': written once
    kind        TEXT    NOT NULL CHECK (kind IN ('reminder', 'timeout', 'computer_move',
                                                 'round_paired', 'match_welcome', 'final_table')),
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game_id     INTEGER REFERENCES games (id),  -- NULL: about a tournament
    payload     TEXT    NOT NULL,  -- JSON: what the front end needs to rebuild the message
    status      TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dropped')),
    created_at  TEXT    NOT NULL,
    lease_until TEXT,
    attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error  TEXT,
    settled_at  TEXT,
    lease_token TEXT  -- who holds the lease: a claim's random token, or 'writer'
);
INSERT INTO outbox_0008 (id, key, kind, guild_id, channel_id, game_id, payload, status,
                         created_at, lease_until, attempts, last_error, settled_at, lease_token)
    SELECT id, key, kind, guild_id, channel_id, game_id, payload, status, created_at,
           lease_until, attempts, last_error, settled_at,
           CASE WHEN lease_until IS NULL THEN NULL ELSE 'writer' END
    FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_0008 RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (lease_until, id) WHERE status = 'pending';
