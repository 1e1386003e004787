-- 0003: ratings per server and ruleset, their history, and indexes for leaderboards and stats.
-- Why: issue 6 (standings, ratings, leaderboards, history and replays). The service computes
-- ratings (openskill); the store only keeps them, written in the same transaction as the game
-- end. `games.rated` records the caller's decision that a game counts for ratings (games against
-- the computer do not), so every rating can be recomputed from the stored game results alone.
-- `ratings` holds the rated play of one player in one ruleset of one server (`rating` is the
-- shown, conservative value the leaderboard sorts by); `rating_history` has one row per player
-- per rated game, in commit order (its id), for trends, match rating changes and checking.
-- Games that ended before this version were all between people, so they are marked rated:
-- `jarmo-bot ratings --rebuild` computes their ratings once after upgrading.

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
UPDATE games SET rated = 1 WHERE status IN ('finished', 'resigned', 'timeout', 'stopped');

CREATE TABLE ratings (
    guild_id     INTEGER NOT NULL,
    ruleset      TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL CHECK (sigma > 0),
    rating       REAL    NOT NULL,
    games        INTEGER NOT NULL CHECK (games >= 0),
    wins         INTEGER NOT NULL DEFAULT 0,
    draws        INTEGER NOT NULL DEFAULT 0,
    losses       INTEGER NOT NULL DEFAULT 0,
    points       INTEGER NOT NULL DEFAULT 0,
    match_wins   INTEGER NOT NULL DEFAULT 0,
    last_game_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, ruleset, user_id),
    CHECK (wins + draws + losses = games)
) WITHOUT ROWID;
-- The leaderboard order (rating desc, games desc, user id), so a page and a rank are index walks.
CREATE INDEX ratings_leaderboard ON ratings (guild_id, ruleset, rating DESC, games DESC, user_id);
-- A player's ratings in every ruleset of a server.
CREATE INDEX ratings_by_player ON ratings (guild_id, user_id);

CREATE TABLE rating_history (
    id           INTEGER PRIMARY KEY,  -- commit order
    game_id      INTEGER NOT NULL REFERENCES games (id),
    guild_id     INTEGER NOT NULL,
    ruleset      TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    rating_before REAL   NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    rating_after REAL    NOT NULL,
    at           TEXT    NOT NULL,  -- the game's finished_at
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_history_trend ON rating_history (guild_id, user_id, ruleset, id);

-- A player's games as White / as Black, newest first: history, streaks, head-to-head. They
-- also cover the per-side tallies (status, result, points), which then never read the table:
-- with 10,000 games a player's stats went from 33 ms to a few.
CREATE INDEX games_by_white ON games
    (guild_id, white_id, finished_at, status, winner, points_white, points_black, black_id);
CREATE INDEX games_by_black ON games
    (guild_id, black_id, finished_at, status, winner, points_white, points_black, white_id);
-- A player's matches (played / won / lost) on a server, covered like the games above.
CREATE INDEX matches_by_first_white ON matches (guild_id, first_white_id, state, winner_id);
CREATE INDEX matches_by_first_black ON matches (guild_id, first_black_id, state, winner_id);
