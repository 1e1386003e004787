-- 0010: stored reviews of finished games.
-- PostgreSQL's version of the file of the same number one folder up (see that file for why):
-- the game id is BIGINT, as the games table's own id is.

CREATE TABLE game_reviews (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id),
    body        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
