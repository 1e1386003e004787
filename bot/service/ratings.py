"""Ratings: which games count, the rating update of a game, and recomputing every rating from
the stored results.

The maths is openskill's Plackett-Luce model (a Bayesian Weng-Lin rating, in the TrueSkill
family), used with the library's own defaults. A player's rating is kept per server and per
ruleset. What players see and what the leaderboard sorts by is the library's conservative
``ordinal`` (``mu - 3 sigma``), scaled so that a newcomer shows 1000: it rises as results come in
*and* as the system grows sure of a player, which rewards coming back to play.

The service computes an update from the stored ratings and hands it to ``GameStore.end``,
which writes it in the game end's own transaction and refuses it if the ratings changed
meanwhile. Replaying the rated games in order with the same functions therefore reproduces the
stored tables exactly (``check_ratings``); ``rebuild_ratings`` rewrites them if they ever drift.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.service.bounded import KeyedLocks
from bot.store import (
    GameRecord,
    MatchRecord,
    RatedGameRecord,
    RatingChange,
    RatingHistoryRecord,
    RatingRecord,
    RatingStore,
    RatingTables,
    RatingUpdate,
    Side,
    Skill,
    StaleRatings,
)
from bot.store.rating_records import COUNTED_STATUSES, EVERY_POOL, RatingScope

log = logging.getLogger(__name__)

MODEL = PlackettLuce()  # library defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
# The shown rating is the model's ordinal(z, alpha, target) = alpha * (mu - z * sigma) + target.
SHOWN_Z, SHOWN_ALPHA, SHOWN_TARGET = 3.0, 20.0, 1000.0
REBUILD_ATTEMPTS = 3


def skill_of(rating: PlackettLuceRating) -> Skill:
    """The stored form of a model rating, with the value shown to players."""
    shown = rating.ordinal(SHOWN_Z, SHOWN_ALPHA, SHOWN_TARGET)
    return Skill(mu=rating.mu, sigma=rating.sigma, rating=shown)


def new_skill() -> Skill:
    """The rating of a player before their first rated game in a ruleset."""
    return skill_of(MODEL.rating())


def rate_game(white: Skill, black: Skill, winner: Side | None) -> tuple[Skill, Skill]:
    """Both players' ratings after a game (``winner`` ``None`` for a draw)."""
    ranks: list[float] = {"white": [1.0, 2.0], "black": [2.0, 1.0], None: [1.0, 1.0]}[winner]
    # (a lower rank is better)
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in (white, black)]
    (new_white,), (new_black,) = MODEL.rate(teams, ranks=ranks)
    return skill_of(new_white), skill_of(new_black)


class Ratings:
    """Decides which games are rated and computes their updates.

    A game is rated when it ended with a result (not aborted) and neither player is in
    ``unrated_players``: the service puts the computer's user id there, so games against the
    computer change no rating.
    """

    def __init__(self, *, unrated_players: Iterable[int] = ()) -> None:
        self.unrated_players = frozenset(unrated_players)
        self._locks: KeyedLocks[int | None] = KeyedLocks()  # by pool, only while in use

    def is_rated(self, record: GameRecord, status: str) -> bool:
        """Whether a game ending as ``status`` changes ratings."""
        players = {record.white_id, record.black_id}
        return status in COUNTED_STATUSES and not players & self.unrated_players

    def lock(self, guild_id: int | None) -> asyncio.Lock:
        """Held from reading the ratings to writing the update: two games of one player ending
        at once in two channels are then rated one after the other, not both from the same
        ``before`` (the store would refuse the second)."""
        return self._locks(guild_id)

    async def plan(
        self,
        store: RatingStore,
        record: GameRecord,
        match: MatchRecord,
        *,
        status: str,
        winner: Side | None,
    ) -> RatingUpdate | None:
        """The update for the game ending as ``status`` with ``winner``, or ``None`` if it is
        not rated."""
        if not self.is_rated(record, status):
            return None
        white = await _current(store, record.guild_id, match.ruleset, record.white_id)
        black = await _current(store, record.guild_id, match.ruleset, record.black_id)
        white_after, black_after = rate_game(white[1], black[1], winner)
        return RatingUpdate(
            ruleset=match.ruleset,
            changes=(
                RatingChange(record.white_id, white[0], white[1], white_after),
                RatingChange(record.black_id, black[0], black[1], black_after),
            ),
        )


async def _current(
    store: RatingStore, guild_id: int | None, ruleset: str, user_id: int
) -> tuple[int, Skill]:
    for stored in await store.player_ratings(guild_id, user_id):
        if stored.ruleset == ruleset:
            return stored.games, stored.skill
    return 0, new_skill()


# -- recomputation -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    guild_id: int | None
    ruleset: str
    user_id: int
    skill: Skill
    last_game_at: datetime
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    match_wins: int = 0

    def record(self) -> RatingRecord:
        return RatingRecord(
            self.guild_id, self.ruleset, self.user_id, self.skill, self.games, self.wins,
            self.draws, self.losses, self.points, self.match_wins, self.last_game_at,
        )  # fmt: skip


def replay_ratings(games: Iterable[RatedGameRecord]) -> RatingTables:
    """The rating tables that rating ``games`` in this order produces (what ``GameStore.end`` would
    have stored), ratings sorted by server, ruleset and user, history in game order."""
    tallies: dict[tuple[int | None, str, int], _Tally] = {}
    history: list[RatingHistoryRecord] = []
    for game in games:
        sides: dict[Side, int] = {"white": game.white_id, "black": game.black_id}
        entries = {
            side: tallies.setdefault(
                (game.guild_id, game.ruleset, user),
                _Tally(game.guild_id, game.ruleset, user, new_skill(), game.finished_at),
            )
            for side, user in sides.items()
        }
        befores = {side: entry.skill for side, entry in entries.items()}
        white_after, black_after = rate_game(befores["white"], befores["black"], game.winner)
        afters: dict[Side, Skill] = {"white": white_after, "black": black_after}
        for side, entry in entries.items():
            history.append(
                RatingHistoryRecord(
                    game.id, game.guild_id, game.ruleset, entry.user_id, befores[side],
                    afters[side], game.finished_at,
                )
            )  # fmt: skip
            _count(entry, game, side, afters[side])
        if game.match_winner_id is not None:
            tallies[(game.guild_id, game.ruleset, game.match_winner_id)].match_wins += 1
    ratings = [tallies[key].record() for key in sorted(tallies, key=_pool_first)]
    return RatingTables(ratings=ratings, history=history)


def _count(entry: _Tally, game: RatedGameRecord, side: Side, after: Skill) -> None:
    entry.skill = after
    entry.last_game_at = game.finished_at
    entry.games += 1
    entry.points += game.points[side]
    if game.winner is None:
        entry.draws += 1
    elif game.winner == side:
        entry.wins += 1
    else:
        entry.losses += 1


@dataclass(frozen=True, slots=True)
class Recomputation:
    """Ratings recomputed from ``games`` rated games."""

    tables: RatingTables
    games: int


async def recompute_ratings(store: RatingStore, scope: RatingScope = EVERY_POOL) -> Recomputation:
    """Every rating of the pool (a server's, the friends pool for ``None``, or every pool)
    recomputed from the stored results
    of its rated games; nothing is written."""
    games = await store.rated_games(scope)
    return Recomputation(replay_ratings(games), len(games))


@dataclass(frozen=True, slots=True)
class RatingDifference:
    """A rating row (a player in a ruleset of a server) that the recomputation gives otherwise;
    ``None`` where one side has no such row."""

    recomputed: RatingRecord | None
    stored: RatingRecord | None


@dataclass(frozen=True, slots=True)
class HistoryDifference:
    """A player's rating change in one game that the recomputation gives otherwise; ``None``
    where one side has no such row."""

    recomputed: RatingHistoryRecord | None
    stored: RatingHistoryRecord | None


Difference = RatingDifference | HistoryDifference


@dataclass(frozen=True, slots=True)
class RatingCheck:
    """How the stored ratings compare with the recomputed ones."""

    games: int  # rated games replayed
    players: int  # rating rows recomputed (player x ruleset x server)
    differences: list[Difference] = field(default_factory=list)  # the first few

    @property
    def ok(self) -> bool:
        """Whether the stored tables are exactly the recomputed ones."""
        return not self.differences


async def check_ratings(
    store: RatingStore, scope: RatingScope = EVERY_POOL, *, show: int = 10
) -> RatingCheck:
    """Recompute every rating and compare it, field by field, with what is stored."""
    fresh = await recompute_ratings(store, scope)
    stored = await store.tables(scope)
    differences = _differences(fresh.tables, stored, show)
    return RatingCheck(fresh.games, len(fresh.tables.ratings), differences)


def _differences(fresh: RatingTables, stored: RatingTables, show: int) -> list[Difference]:
    found: list[Difference] = []
    want_ratings, have_ratings = _ratings_by_key(fresh), _ratings_by_key(stored)
    for key in sorted(want_ratings.keys() | have_ratings.keys(), key=_pool_first):
        want, have = want_ratings.get(key), have_ratings.get(key)
        if want != have:
            found.append(RatingDifference(want, have))
    want_history, have_history = _history_by_key(fresh), _history_by_key(stored)
    for history_key in sorted(want_history.keys() | have_history.keys()):
        change, had = want_history.get(history_key), have_history.get(history_key)
        if change != had:
            found.append(HistoryDifference(change, had))
    return found[:show]


def _pool_first(key: tuple[int | None, str, int]) -> tuple[bool, int, str, int]:
    """A rating's key in the stored order: the friends pool (no server) first, then by server,
    ruleset and player."""
    guild_id, ruleset, user_id = key
    return guild_id is not None, guild_id or 0, ruleset, user_id


def _ratings_by_key(tables: RatingTables) -> dict[tuple[int | None, str, int], RatingRecord]:
    # The display name comes from another table and is not part of the rating.
    return {
        (r.guild_id, r.ruleset, r.user_id): replace(r, display_name=None) for r in tables.ratings
    }


def _history_by_key(tables: RatingTables) -> dict[tuple[int, int], RatingHistoryRecord]:
    return {(h.game_id, h.user_id): h for h in tables.history}


async def rebuild_ratings(store: RatingStore, scope: RatingScope = EVERY_POOL) -> Recomputation:
    """Recompute every rating of the pool (or of every pool) and store the result in place
    of the current tables. A game that ends meanwhile makes it start over (a few times)."""
    for attempt in range(1, REBUILD_ATTEMPTS + 1):
        fresh = await recompute_ratings(store, scope)
        try:
            await store.replace(fresh.tables, scope=scope, expected_games=fresh.games)
        except StaleRatings:
            if attempt == REBUILD_ATTEMPTS:
                raise
            log.info("a rated game ended during the rebuild; starting over")
            continue
        return fresh
    raise AssertionError("unreachable")
