-- 0007: tournaments: the event, its entries, and each round's pairings with their results.
-- Why: issue 19 (server tournaments). Everything an event needs to go on after a restart is
-- here; the draw itself is recomputed from these rows. Written in the SQL that SQLite and
-- PostgreSQL share: ids are assigned by the store (no rowid or identity column), Discord ids
-- are BIGINT, flags are 0/1 integers and times ISO 8601 UTC text. The partial unique index
-- makes the database refuse a second open tournament in one channel; `current_round` is the
-- version checked by every round change, so two moderators pressing "start" start it once.

CREATE TABLE tournaments (
    id                    BIGINT  NOT NULL PRIMARY KEY,
    guild_id              BIGINT  NOT NULL,
    channel_id            BIGINT  NOT NULL,
    organiser_id          BIGINT  NOT NULL,
    name                  TEXT    NOT NULL,
    format                TEXT    NOT NULL CHECK (format IN ('round-robin', 'swiss')),
    rounds                INTEGER NOT NULL CHECK (rounds >= 0),  -- 0: as many as the format allows
    game_count            INTEGER NOT NULL CHECK (game_count IN (2, 4, 6)),
    ruleset               TEXT    NOT NULL,
    layout                TEXT    NOT NULL,
    max_plies             INTEGER NOT NULL CHECK (max_plies > 0),
    time_per_move_seconds INTEGER CHECK (time_per_move_seconds > 0),
    status                TEXT    NOT NULL DEFAULT 'signup'
                          CHECK (status IN ('signup', 'running', 'finished')),
    current_round         INTEGER NOT NULL DEFAULT 0,
    message_id            BIGINT,
    created_at            TEXT    NOT NULL,
    finished_at           TEXT
);
CREATE UNIQUE INDEX tournaments_one_open_per_channel
    ON tournaments (channel_id) WHERE status <> 'finished';

CREATE TABLE tournament_entries (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id),
    user_id       BIGINT  NOT NULL,
    seed          INTEGER NOT NULL,  -- order of joining: the pairing's seed order
    withdrawn     INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
    PRIMARY KEY (tournament_id, user_id),
    UNIQUE (tournament_id, seed)
);

CREATE TABLE tournament_pairings (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id),
    round_number  INTEGER NOT NULL CHECK (round_number >= 1),
    board         INTEGER NOT NULL,
    first_id      BIGINT  NOT NULL,  -- starts the match's first game
    second_id     BIGINT,            -- NULL: a bye for first_id
    match_id      BIGINT  REFERENCES matches (id),
    decided       INTEGER NOT NULL DEFAULT 0 CHECK (decided IN (0, 1)),
    winner_id     BIGINT,            -- NULL once decided: a drawn match
    first_points  INTEGER NOT NULL DEFAULT 0,
    second_points INTEGER NOT NULL DEFAULT 0,
    forfeit       INTEGER NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1)),
    PRIMARY KEY (tournament_id, round_number, board)
);
CREATE UNIQUE INDEX tournament_pairings_by_match ON tournament_pairings (match_id);
