"""What the leaderboard, stats, history and standings show: plain data for any front end."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import (
    ActionRecord,
    GameResultRecord,
    Outcome,
    PlayerStatsRecord,
    RatingRecord,
    Side,
    TakenBackRecord,
    Tally,
    TournamentRecord,
)


def shown(rating: float) -> int:
    """A rating as players see it: a whole number."""
    return round(rating)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who asks, and from which chat. Outside servers the friends pool's games are private to
    the chats they were played in: there a viewer sees the games they played and this chat's."""

    user_id: int
    channel_id: int

    def may_see(self, game: GameResultRecord) -> bool:
        """Whether this viewer may see ``game`` (any game of a server, seen from that server)."""
        return (
            game.guild_id is not None
            or self.user_id in (game.white_id, game.black_id)
            or game.channel_id == self.channel_id
        )


@dataclass(frozen=True, slots=True)
class RatingShift:
    """A player's rating before and after something (a match), in one ruleset."""

    user_id: int
    ruleset: str
    before: float
    after: float
    games: int  # the player's rated games in the ruleset so far (a rating is provisional early)

    @property
    def delta(self) -> int:
        """The change as shown (difference of the shown ratings)."""
        return shown(self.after) - shown(self.before)


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One ranked player."""

    rank: int
    user_id: int
    name: str
    rating: RatingRecord


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """A page of the server's leaderboard in one ruleset (``page`` counts from 0)."""

    guild_id: int
    ruleset: str
    page: int
    pages: int
    total: int  # rated players
    rows: list[LeaderboardRow]
    viewer_id: int
    viewer_row: LeaderboardRow | None  # the viewer's own row when it is not on this page


@dataclass(frozen=True, slots=True)
class RulesetRating:
    """A player's rating in one ruleset and their place among ``players``."""

    rank: int
    players: int
    rating: RatingRecord


@dataclass(frozen=True, slots=True)
class PlayerProfile:
    """One player's record on a server (``None``: in the friends pool, outside servers), as
    ``/jarmo stats`` shows it."""

    guild_id: int | None
    user_id: int
    name: str
    stats: PlayerStatsRecord
    ratings: list[RulesetRating]  # most played ruleset first
    trend_ruleset: str | None  # the ruleset of ``trend`` and ``chart``
    trend: list[float]  # shown ratings, oldest first: before the first game, then after each
    chart: bytes | None  # PNG of ``trend``; None with fewer than two points
    viewer_id: int
    head_to_head: Tally | None  # the player's results against the viewer (None: same person)

    @property
    def average_points(self) -> float:
        """Board points per counted game."""
        overall = self.stats.overall
        return overall.points / overall.games if overall.games else 0.0


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One game in a player's history, from their point of view."""

    game: GameResultRecord
    user_id: int
    opponent_id: int
    opponent_name: str
    result: Outcome

    @property
    def points(self) -> tuple[int, int]:
        """(the player's points, the opponent's)."""
        side = self.game.side_of(self.user_id) or "white"
        other: Side = "black" if side == "white" else "white"
        return self.game.points[side], self.game.points[other]


@dataclass(frozen=True, slots=True)
class TournamentPlacing:
    """A finished tournament a player was entered in, where they finished in its final table
    (players level share a rank), and which of their matches a moderator forced: (round,
    moderator id) each."""

    tournament: TournamentRecord
    rank: int
    players: int
    forced: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """A player's latest games (against one opponent, if chosen), newest first, and the
    finished tournaments they played in, newest first."""

    guild_id: int | None
    user_id: int
    name: str
    opponent_id: int | None
    lines: list[HistoryLine]
    tournaments: tuple[TournamentPlacing, ...] = ()


@dataclass(frozen=True, slots=True)
class GameExport:
    """A finished game to hand out: its moves (for a move list) and its replay GIF."""

    game: GameResultRecord
    white_name: str
    black_name: str
    actions: tuple[ActionRecord, ...]
    gif: bytes
    taken_back: tuple[TakenBackRecord, ...] = ()  # moves played, then taken back by agreement

    @property
    def text_filename(self) -> str:
        """``game-<id>.txt``."""
        return f"game-{self.game.id}.txt"

    @property
    def gif_filename(self) -> str:
        """``game-<id>.gif``."""
        return f"game-{self.game.id}.gif"
