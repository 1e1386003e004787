-- 0001: the first schema: guild settings, players, challenges, matches, games and their actions.
-- Why: issue 4 (persistence). Games keep both an action list (the truth, replayed on load) and
-- a snapshot of the engine state (fast loads); `version` (= number of actions) is the optimistic
-- concurrency token. The partial unique indexes make the database itself refuse a second active
-- game, or a second pending challenge, in one channel. Times are ISO 8601 UTC text with
-- microseconds, so they compare correctly as text.

CREATE TABLE guild_settings (
    guild_id                 INTEGER PRIMARY KEY,
    default_ruleset          TEXT    NOT NULL,
    default_layout           TEXT    NOT NULL,
    challenge_expiry_seconds INTEGER NOT NULL CHECK (challenge_expiry_seconds > 0)
);

CREATE TABLE players (
    guild_id         INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    display_name     TEXT,
    -- Glicko-2 starting values; the rating issue fills these in.
    rating           REAL    NOT NULL DEFAULT 1500,
    rating_deviation REAL    NOT NULL DEFAULT 350,
    volatility       REAL,
    games            INTEGER NOT NULL DEFAULT 0,
    wins             INTEGER NOT NULL DEFAULT 0,
    draws            INTEGER NOT NULL DEFAULT 0,
    losses           INTEGER NOT NULL DEFAULT 0,
    points           INTEGER NOT NULL DEFAULT 0,
    match_wins       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE challenges (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    challenger_id     INTEGER NOT NULL,
    challenged_id     INTEGER NOT NULL,
    game_count        INTEGER NOT NULL CHECK (game_count IN (1, 2, 4, 6)),
    ruleset           TEXT    NOT NULL,
    layout            TEXT    NOT NULL,
    side              TEXT    NOT NULL CHECK (side IN ('white', 'black', 'random')),
    max_plies         INTEGER NOT NULL CHECK (max_plies > 0),
    vs_computer_level TEXT,
    status            TEXT    NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at        TEXT    NOT NULL,
    expires_at        TEXT    NOT NULL,
    closed_at         TEXT,
    message_id        INTEGER,
    CHECK (challenger_id <> challenged_id)
);
CREATE UNIQUE INDEX challenges_one_pending_per_channel
    ON challenges (channel_id) WHERE status = 'pending';
CREATE INDEX challenges_pending_by_expiry
    ON challenges (expires_at) WHERE status = 'pending';

CREATE TABLE matches (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    challenge_id   INTEGER UNIQUE REFERENCES challenges (id),
    first_white_id INTEGER NOT NULL,
    first_black_id INTEGER NOT NULL,
    ruleset        TEXT    NOT NULL,
    layout         TEXT    NOT NULL,
    game_count     INTEGER NOT NULL CHECK (game_count IN (1, 2, 4, 6)),
    max_plies      INTEGER NOT NULL CHECK (max_plies > 0),
    state          TEXT    NOT NULL DEFAULT 'running'
                   CHECK (state IN ('running', 'finished', 'forfeited', 'aborted')),
    winner_id      INTEGER CHECK (winner_id IN (first_white_id, first_black_id)),
    created_at     TEXT    NOT NULL,
    finished_at    TEXT,
    CHECK (first_white_id <> first_black_id)
);
CREATE INDEX matches_by_channel ON matches (channel_id, id);

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    match_id      INTEGER NOT NULL REFERENCES matches (id),
    game_index    INTEGER NOT NULL CHECK (game_index >= 0),
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    white_id      INTEGER NOT NULL,
    black_id      INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'active'
                  CHECK (status IN ('active', 'finished', 'resigned', 'timeout', 'stopped',
                                    'aborted')),
    version       INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    snapshot      TEXT    NOT NULL,  -- json.dumps(Game.to_dict())
    winner        TEXT    CHECK (winner IN ('white', 'black')),
    points_white  INTEGER,
    points_black  INTEGER,
    termination   TEXT,
    started_at    TEXT    NOT NULL,
    last_activity TEXT    NOT NULL,
    finished_at   TEXT,
    UNIQUE (match_id, game_index),
    CHECK (white_id <> black_id)
);
CREATE UNIQUE INDEX games_one_active_per_channel
    ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_active_by_activity
    ON games (last_activity) WHERE status = 'active';

CREATE TABLE actions (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL CHECK (ply >= 1),  -- 1 for the first action; games.version = last
    player_id INTEGER NOT NULL,
    move      TEXT    NOT NULL,  -- canonical notation
    played_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
