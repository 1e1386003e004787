"""The statements of rating writes, run inside the writer's transaction: keeping ratings the
service has computed (never computing them), and replacing them all after a recomputation."""

from __future__ import annotations

from sqlalchemy import ColumnElement, delete, func, insert, select, true

from bot.store._rows import to_text
from bot.store._sql import Sql, keyed_by_place, one, upsert
from bot.store.errors import StaleRatings
from bot.store.rating_records import (
    COUNTED_STATUSES,
    EVERY_POOL,
    RatingChange,
    RatingScope,
    RatingTables,
    RatingUpdate,
)
from bot.store.records import GameRecord, MatchRecord
from bot.store.schema import games, rating_history, ratings

_ADDED_UP = ("wins", "draws", "losses", "points")


def in_scope(guild_id_column: ColumnElement[int], scope: RatingScope) -> ColumnElement[bool]:
    """One server's rows, the friends pool's (``None``), or every pool's."""
    return true() if scope is EVERY_POOL else guild_id_column == scope  # == None: IS NULL


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
        new = upsert(db, ratings).values(
            guild_id=ended.guild_id, ruleset=update.ruleset, user_id=change.user_id,
            mu=after.mu, sigma=after.sigma, rating=after.rating, games=1, wins=int(won),
            draws=int(ended.winner is None), losses=int(lost), points=ended.points[side],
            last_game_at=at,
        )  # fmt: skip
        added = {name: ratings.c[name] + new.excluded[name] for name in _ADDED_UP}
        replaced = {name: new.excluded[name] for name in ("mu", "sigma", "rating", "last_game_at")}
        db.execute(
            new.on_conflict_do_update(
                **keyed_by_place(ratings, ended.guild_id, ratings.c.ruleset, ratings.c.user_id),
                set_={"games": ratings.c.games + 1, **added, **replaced},
            )
        )
        before = change.before
        db.execute(
            insert(rating_history).values(
                game_id=ended.id, guild_id=ended.guild_id, ruleset=update.ruleset,
                user_id=change.user_id, mu_before=before.mu, sigma_before=before.sigma,
                rating_before=before.rating, mu_after=after.mu, sigma_after=after.sigma,
                rating_after=after.rating, at=at,
            )
        )  # fmt: skip


def _check_current(db: Sql, guild_id: int | None, ruleset: str, change: RatingChange) -> None:
    row = one(
        db,
        select(ratings.c.games, ratings.c.mu, ratings.c.sigma, ratings.c.rating).where(
            ratings.c.guild_id == guild_id,
            ratings.c.ruleset == ruleset,
            ratings.c.user_id == change.user_id,
        ),
    )
    played = row["games"] if row else 0
    before = change.before
    if played != change.games_before or (
        row is not None
        and (row["mu"], row["sigma"], row["rating"]) != (before.mu, before.sigma, before.rating)
    ):
        raise StaleRatings(guild_id, ruleset, change.user_id, change.games_before, played)


def count_match_win(db: Sql, match: MatchRecord, update: RatingUpdate, winner_id: int) -> None:
    """The winner of a match that a rated game ended gets a rated match win."""
    db.execute(
        ratings.update()
        .where(ratings.c.guild_id == match.guild_id, ratings.c.ruleset == update.ruleset)
        .where(ratings.c.user_id == winner_id)
        .values(match_wins=ratings.c.match_wins + 1)
    )


def replace_ratings(db: Sql, tables: RatingTables, scope: RatingScope, expected_games: int) -> None:
    """Replace every rating and rating-history row of ``scope``: one server's, the friends
    pool's (``None``) or every pool's (``EVERY_POOL``).

    Raises ``StaleRatings`` if the number of rated games is no longer ``expected_games`` (a game
    ended while the tables were being recomputed), and ``ValueError`` for a row of another guild.
    """
    counted = select(func.count()).where(games.c.rated == 1, in_scope(games.c.guild_id, scope))
    found = int(db.execute(counted).scalar_one())
    if found != expected_games:
        raise StaleRatings(
            None if scope is EVERY_POOL else scope, None, None, expected_games, found
        )
    guilds = {row.guild_id for row in tables.ratings} | {row.guild_id for row in tables.history}
    if scope is not EVERY_POOL and guilds - {scope}:
        raise ValueError(f"the tables hold rows of pools other than {scope}")
    db.execute(delete(rating_history).where(in_scope(rating_history.c.guild_id, scope)))
    db.execute(delete(ratings).where(in_scope(ratings.c.guild_id, scope)))
    rows = [
        {
            "guild_id": r.guild_id, "ruleset": r.ruleset, "user_id": r.user_id,
            "mu": r.skill.mu, "sigma": r.skill.sigma, "rating": r.skill.rating, "games": r.games,
            "wins": r.wins, "draws": r.draws, "losses": r.losses, "points": r.points,
            "match_wins": r.match_wins, "last_game_at": to_text(r.last_game_at),
        }
        for r in tables.ratings
    ]  # fmt: skip
    if rows:
        db.execute(insert(ratings), rows)
    history = [
        {
            "game_id": h.game_id, "guild_id": h.guild_id, "ruleset": h.ruleset,
            "user_id": h.user_id, "mu_before": h.before.mu, "sigma_before": h.before.sigma,
            "rating_before": h.before.rating, "mu_after": h.after.mu,
            "sigma_after": h.after.sigma, "rating_after": h.after.rating, "at": to_text(h.at),
        }
        for h in tables.history
    ]  # fmt: skip
    if history:
        db.execute(insert(rating_history), history)
