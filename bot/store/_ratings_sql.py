"""The SQL of rating writes, run inside the writer's transaction: keeping ratings the service has
computed (never computing them), and replacing them all after a recomputation."""

from __future__ import annotations

from bot.store._rows import to_text
from bot.store._sql import Sql
from bot.store.errors import StaleRatings
from bot.store.rating_records import COUNTED_STATUSES, RatingChange, RatingTables, RatingUpdate
from bot.store.records import GameRecord, MatchRecord

_UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, ruleset, user_id, mu, sigma, rating, games, wins, draws,"
    " losses, points, last_game_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, ruleset, user_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, rating = excluded.rating, games = ratings.games + 1,"
    " wins = ratings.wins + excluded.wins, draws = ratings.draws + excluded.draws,"
    " losses = ratings.losses + excluded.losses, points = ratings.points + excluded.points,"
    " last_game_at = excluded.last_game_at"
)
_INSERT_HISTORY = (
    "INSERT INTO rating_history (game_id, guild_id, ruleset, user_id, mu_before, sigma_before,"
    " rating_before, mu_after, sigma_after, rating_after, at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# One server, or all of them for NULL (the cast gives PostgreSQL the parameter's type).
_IN_SCOPE = "(CAST(? AS BIGINT) IS NULL OR guild_id = ?)"


def check_update(ended: GameRecord, match: MatchRecord, update: RatingUpdate) -> None:
    """Raise ``ValueError`` unless ``update`` rates exactly this ended game's two players."""
    if ended.status not in COUNTED_STATUSES:
        raise ValueError(f"a game that ended as {ended.status!r} cannot be rated")
    if update.ruleset != match.ruleset:
        raise ValueError(f"game {ended.id} is {match.ruleset}, not {update.ruleset}")
    users = sorted(change.user_id for change in update.changes)
    if users != sorted((ended.white_id, ended.black_id)):
        raise ValueError(f"ratings for {users} do not match game {ended.id}'s players")


def apply_ratings(
    db: Sql, ended: GameRecord, match: MatchRecord, update: RatingUpdate, at: str
) -> None:
    """Store both players' new ratings and their history rows. The caller marks the game
    ``rated`` in the same transaction (``SqlGames.end`` does so in the update that ends it).

    Raises ``StaleRatings`` if a player's stored rating is not the ``before`` the update was
    computed from (another rated game or a rebuild got there first); ``ValueError`` for an
    update that does not fit the game.
    """
    check_update(ended, match, update)
    assert ended.points is not None  # an ended game always has its points
    for change in update.changes:
        _check_current(db, ended.guild_id, update.ruleset, change)
        side = ended.side_of(change.user_id)
        assert side is not None  # check_update: both changes are the game's players
        won, lost = ended.winner == side, ended.winner not in (side, None)
        after = change.after
        db.execute(
            _UPSERT_RATING,
            (
                ended.guild_id, update.ruleset, change.user_id, after.mu, after.sigma,
                after.rating, won, ended.winner is None, lost, ended.points[side], at,
            ),
        )  # fmt: skip
        before = change.before
        db.execute(
            _INSERT_HISTORY,
            (
                ended.id, ended.guild_id, update.ruleset, change.user_id, before.mu,
                before.sigma, before.rating, after.mu, after.sigma, after.rating, at,
            ),
        )  # fmt: skip


def _check_current(db: Sql, guild_id: int, ruleset: str, change: RatingChange) -> None:
    row = db.execute(
        "SELECT games, mu, sigma, rating FROM ratings"
        " WHERE guild_id = ? AND ruleset = ? AND user_id = ?",
        (guild_id, ruleset, change.user_id),
    ).fetchone()
    games = row[0] if row else 0
    before = change.before
    if games != change.games_before or (
        row is not None and tuple(row[1:]) != (before.mu, before.sigma, before.rating)
    ):
        raise StaleRatings(guild_id, ruleset, change.user_id, change.games_before, games)


def count_match_win(db: Sql, match: MatchRecord, update: RatingUpdate, winner_id: int) -> None:
    """The winner of a match that a rated game ended gets a rated match win."""
    db.execute(
        "UPDATE ratings SET match_wins = match_wins + 1"
        " WHERE guild_id = ? AND ruleset = ? AND user_id = ?",
        (match.guild_id, update.ruleset, winner_id),
    )


def replace_ratings(
    db: Sql, tables: RatingTables, guild_id: int | None, expected_games: int
) -> None:
    """Replace every rating and rating-history row of ``guild_id`` (all servers for ``None``).

    Raises ``StaleRatings`` if the number of rated games is no longer ``expected_games`` (a game
    ended while the tables were being recomputed), and ``ValueError`` for a row of another guild.
    """
    scope = (guild_id, guild_id)
    counted = db.execute(f"SELECT count(*) FROM games WHERE rated = 1 AND {_IN_SCOPE}", scope)
    found = int(counted.fetchone()[0])
    if found != expected_games:
        raise StaleRatings(guild_id, None, None, expected_games, found)
    guilds = {row.guild_id for row in tables.ratings} | {row.guild_id for row in tables.history}
    if guild_id is not None and guilds - {guild_id}:
        raise ValueError(f"the tables hold rows of servers other than {guild_id}")
    db.execute(f"DELETE FROM rating_history WHERE {_IN_SCOPE}", scope)
    db.execute(f"DELETE FROM ratings WHERE {_IN_SCOPE}", scope)
    db.executemany(
        "INSERT INTO ratings (guild_id, ruleset, user_id, mu, sigma, rating, games, wins, draws,"
        " losses, points, match_wins, last_game_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                r.guild_id, r.ruleset, r.user_id, r.skill.mu, r.skill.sigma, r.skill.rating,
                r.games, r.wins, r.draws, r.losses, r.points, r.match_wins,
                to_text(r.last_game_at),
            )
            for r in tables.ratings
        ],
    )  # fmt: skip
    db.executemany(
        _INSERT_HISTORY,
        [
            (
                h.game_id, h.guild_id, h.ruleset, h.user_id, h.before.mu, h.before.sigma,
                h.before.rating, h.after.mu, h.after.sigma, h.after.rating, to_text(h.at),
            )
            for h in tables.history
        ],
    )  # fmt: skip
