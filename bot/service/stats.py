"""Use cases for coming back: the leaderboard, a player's stats, their game history and a game's
move list and replay. Read-only; Pillow work runs in worker threads."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from bot.render import ENGLISH_WORDS, ImageWords, render_rating_chart, render_replay
from bot.service._views import result_banner
from bot.service.errors import Code, NoStats
from bot.service.stats_models import (
    GameExport,
    HistoryLine,
    HistoryPage,
    LeaderboardPage,
    LeaderboardRow,
    PlayerProfile,
    RatingShift,
    RulesetRating,
    TournamentPlacing,
    Viewer,
)
from bot.store import (
    GameResultRecord,
    GameStore,
    MatchRecord,
    RankedRating,
    RatingStore,
    ResultStore,
)

PAGE_SIZE = 10
TREND_GAMES = 30  # rating changes drawn in the chart
HISTORY_GAMES = 10

Names = Callable[[int | None, int], Awaitable[str]]  # (guild id, user id) -> display name


class PlayerStats:
    """Leaderboards, profiles, history and game exports on top of the store's ratings,
    results and games."""

    def __init__(
        self, ratings: RatingStore, results: ResultStore, games: GameStore, names: Names
    ) -> None:
        self._ratings = ratings
        self._results = results
        self._games = games
        self._names = names

    async def leaderboard(
        self, guild_id: int, ruleset: str, *, page: int = 0, viewer_id: int
    ) -> LeaderboardPage:
        """A page of the server's players ranked by rating in ``ruleset`` (rating desc, games
        desc, user id), with the viewer's own row when it is not on the page. A page beyond the
        last shows the last one. Raises ``NoStats`` when nobody has a rating yet."""
        total = await self._ratings.leaderboard_size(guild_id, ruleset)
        if total == 0:
            raise NoStats(Code.NO_RATINGS, ruleset=ruleset)
        pages = -(-total // PAGE_SIZE)
        page = min(max(page, 0), pages - 1)
        ranked = await self._ratings.leaderboard(
            guild_id, ruleset, offset=page * PAGE_SIZE, limit=PAGE_SIZE
        )
        rows = [await self._row(entry) for entry in ranked]
        viewer_row = None
        if all(row.user_id != viewer_id for row in rows):
            mine = await self._ratings.player_rank(guild_id, ruleset, viewer_id)
            viewer_row = await self._row(mine) if mine else None
        return LeaderboardPage(guild_id, ruleset, page, pages, total, rows, viewer_id, viewer_row)

    async def top(self, guild_id: int, ruleset: str, *, limit: int) -> list[LeaderboardRow]:
        """The server's ``limit`` best players in ``ruleset`` (none: nobody is rated)."""
        ranked = await self._ratings.leaderboard(guild_id, ruleset, offset=0, limit=limit)
        return [await self._row(entry) for entry in ranked]

    async def _row(self, entry: RankedRating) -> LeaderboardRow:
        rating = entry.rating
        name = rating.display_name or await self._names(rating.guild_id, rating.user_id)
        return LeaderboardRow(entry.rank, rating.user_id, name, rating)

    async def profile(
        self,
        guild_id: int | None,
        user_id: int,
        *,
        viewer_id: int,
        ruleset: str | None = None,
        words: ImageWords = ENGLISH_WORDS,
    ) -> PlayerProfile:
        """The player's ratings (with rank), rating trend and chart (in ``ruleset``, or their
        most played one, labelled in ``words``), results as White and as Black, matches,
        streak, and their record against the viewer. Raises ``NoStats`` for a player without
        a finished game."""
        name = await self._names(guild_id, user_id)
        stats = await self._results.player_stats(guild_id, user_id)
        ratings = await self._ratings.player_ratings(guild_id, user_id)
        if stats.overall.games == 0 and not ratings:
            raise NoStats(Code.NO_STATS, name=name)
        ranked = []
        for rating in ratings:
            place = await self._ratings.player_rank(guild_id, rating.ruleset, user_id)
            players = await self._ratings.leaderboard_size(guild_id, rating.ruleset)
            ranked.append(RulesetRating(place.rank if place else players, players, rating))
        chosen = _trend_ruleset(ruleset, [r.ruleset for r in ratings])
        trend = await self._trend(guild_id, user_id, chosen) if chosen else []
        chart = None
        if len(trend) >= 2:
            title = words.chart_title.format(name=name, ruleset=chosen)
            chart = await asyncio.to_thread(render_rating_chart, trend, title=title, words=words)
        against = None
        if viewer_id != user_id:
            against = await self._results.head_to_head(guild_id, user_id, viewer_id)
        return PlayerProfile(
            guild_id, user_id, name, stats, ranked, chosen, trend, chart, viewer_id, against
        )

    async def _trend(self, guild_id: int | None, user_id: int, ruleset: str) -> list[float]:
        changes = await self._ratings.history(guild_id, user_id, ruleset, limit=TREND_GAMES)
        if not changes:
            return []
        return [changes[0].before.rating, *(change.after.rating for change in changes)]

    async def history(
        self,
        guild_id: int | None,
        user_id: int,
        opponent_id: int | None = None,
        *,
        tournaments: Sequence[TournamentPlacing] = (),
        viewer: Viewer | None = None,
    ) -> HistoryPage:
        """The player's latest ended games (against ``opponent_id`` only, if given), newest
        first, shown with their finished ``tournaments`` (see ``TournamentHistory``). Outside
        servers only the games ``viewer`` may see are listed. Raises ``NoStats`` when there
        are none."""
        name = await self._names(guild_id, user_id)
        games = await self._results.recent_games(
            guild_id, user_id, opponent_id, limit=HISTORY_GAMES * (1 if guild_id else 5)
        )
        games = [game for game in games if _visible(game, viewer)][:HISTORY_GAMES]
        if not games and not tournaments:
            if opponent_id is None:
                raise NoStats(Code.NO_HISTORY, name=name)
            opponent_name = await self._names(guild_id, opponent_id)
            raise NoStats(Code.NO_HISTORY_AGAINST, name=name, opponent=opponent_name)
        lines = []
        for game in games:
            opponent = game.opponent_of(user_id)
            lines.append(
                HistoryLine(
                    game, user_id, opponent, await self._names(guild_id, opponent),
                    game.result_for(user_id),
                )
            )  # fmt: skip
        return HistoryPage(guild_id, user_id, name, opponent_id, lines, tuple(tournaments))

    async def export_game(
        self,
        guild_id: int | None,
        game_id: int,
        *,
        words: ImageWords = ENGLISH_WORDS,
        viewer: Viewer | None = None,
    ) -> GameExport:
        """A finished game's move list (one move per line, with ply and player) and its replay
        GIF, its texts in ``words``. Raises ``NoStats`` for a game that is not a finished game
        of this server, or outside servers one that ``viewer`` may not see."""
        result = await self._results.game_result(game_id)
        if result is None or result.guild_id != guild_id or not _visible(result, viewer):
            raise NoStats(Code.GAME_NOT_IN_HISTORY, game=game_id)
        record = await self._games.get(game_id)
        actions = await self._games.actions(game_id)
        white = await self._names(guild_id, result.white_id)
        black = await self._names(guild_id, result.black_id)
        gif = await asyncio.to_thread(
            render_replay,
            record.engine,
            players=(white, black),
            result=result_banner(result),
            words=words,
        )
        taken_back = tuple(await self._games.taken_back(game_id))
        return GameExport(result, white, black, tuple(actions), gif, taken_back)


def _visible(game: GameResultRecord, viewer: Viewer | None) -> bool:
    return viewer.may_see(game) if viewer else game.guild_id is not None


def _trend_ruleset(wanted: str | None, played: list[str]) -> str | None:
    if wanted in played:
        return wanted
    return played[0] if played else None


async def match_shifts(ratings: RatingStore, match: MatchRecord) -> tuple[RatingShift, ...]:
    """Each player's rating change over the match's rated games (none for an unrated match)."""
    first: dict[int, float] = {}
    last: dict[int, float] = {}
    for change in await ratings.match_changes(match.id):
        first.setdefault(change.user_id, change.before.rating)
        last[change.user_id] = change.after.rating
    shifts = []
    for user in match.player_ids:
        if user in first:
            games = await _rated_games(ratings, match.guild_id, user, match.ruleset)
            shifts.append(RatingShift(user, match.ruleset, first[user], last[user], games))
    return tuple(shifts)


async def _rated_games(
    ratings: RatingStore, guild_id: int | None, user_id: int, ruleset: str
) -> int:
    rows = await ratings.player_ratings(guild_id, user_id)
    return next((r.games for r in rows if r.ruleset == ruleset), 0)
