-- 0010: stored reviews of finished games.
-- Why: a review searches every position of a game (seconds of the search pool's time); it is
-- kept once made, so asking again costs nothing. The first review stored for a game stays:
-- two processes that reviewed the same game at once both read back that one. `body` is the
-- review as JSON (its own format number inside); the game it reviews never changes again.

CREATE TABLE game_reviews (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    body        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
