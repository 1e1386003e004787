"""Watching a game from the live board: everything the page shows of a game, found by its id,
and a player's move made there."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot import store as st
from bot.jarmo import POINT_NAMES, Action
from bot.jarmo.board import SIDE_INDEX, camp_points, column_of, row_of
from bot.jarmo.layouts import get_layout
from bot.jarmo.position import Position, Side
from bot.service._reports import Reports
from bot.service._scoring import Scoreboard
from bot.service._seats import game_by_id
from bot.service._views import BoardPicture
from bot.service.kit import ServiceKit
from bot.service.models import Place, Report
from bot.service.play import PlayCases

SIDES: tuple[Side, Side] = ("white", "black")


@dataclass(frozen=True, slots=True)
class BoardPoint:
    """A point and where it is drawn: ``x`` 0..4 from A to E, ``y`` 0..4 from row 5 down."""

    name: str
    x: int
    y: int


BOARD_POINTS = tuple(
    BoardPoint(name, column_of(i), 4 - row_of(i)) for i, name in enumerate(POINT_NAMES)
)
CAMPS: dict[Side, tuple[str, ...]] = {
    side: tuple(POINT_NAMES[p] for p in camp_points(SIDE_INDEX[side])) for side in SIDES
}


@dataclass(frozen=True, slots=True)
class MoveShape:
    """An action as the page draws it: its text, the step's two points, the placed point."""

    text: str
    origin: str | None
    target: str | None
    place: str | None


def last_move_shape(position: Position) -> MoveShape | None:
    """The action that led to ``position``, as the page draws it (``None`` at the start)."""
    last = position.last
    return None if last is None else MoveShape(last.notation, last.origin, last.target, last.placed)


@dataclass(frozen=True, slots=True)
class WatchedGame:
    """A game as the live board shows it: the position, the players, the moves, the clock,
    the match score and the result (its points and camps are every game's: ``BOARD_POINTS``
    and ``CAMPS``). Values only, no words."""

    game_id: int
    guild_id: int | None  # None: outside servers
    version: int
    ruleset: str
    status: st.GameStatus
    lines: tuple[tuple[str, str], ...]
    pieces: tuple[tuple[str, Side], ...]  # (point, side)
    reserve: dict[Side, int]
    player_ids: dict[Side, int]
    player_names: dict[Side, str]
    turn: Side | None  # None once the game has ended
    last_move: MoveShape | None
    moves: tuple[str, ...]
    legal: tuple[MoveShape, ...]  # the side to move's actions (empty once over)
    deadline: datetime | None
    per_move_seconds: int | None
    paused: bool
    score: dict[Side, int]  # each current side's player's points in the match so far
    game_number: int  # 1-based
    games: int
    winner: Side | None
    reason: str | None  # None while the game is active

    def side_of(self, user_id: int | None) -> Side | None:
        """The side ``user_id`` plays in this game, or ``None``."""
        for side in SIDES:
            if user_id is not None and self.player_ids[side] == user_id:
                return side
        return None


class WatchCases:
    """The live board's use cases over one service kit."""

    def __init__(self, kit: ServiceKit, play: PlayCases, reports: Reports) -> None:
        self._kit = kit
        self._play = play
        self._reports = reports

    async def snapshot(self, game_id: int) -> WatchedGame:
        """The game ``game_id`` as it is stored now. Raises ``NoGameHere`` for an unknown game,
        ``GameDamaged`` for one that cannot be loaded."""
        kit = self._kit
        record = await game_by_id(kit, game_id)
        totals = Scoreboard(record.match, await kit.store.games.match_games(record.match_id))
        game = record.engine
        position = game.position()
        ids: dict[Side, int] = {"white": record.white_id, "black": record.black_id}
        names = {side: await kit.names(record.guild_id, ids[side]) for side in SIDES}
        running = record.is_active and not game.over
        legal = (
            tuple(_shape(game.notation(action), action) for action in game.legal_actions())
            if running
            else ()
        )
        return WatchedGame(
            game_id=record.id,
            guild_id=record.guild_id,
            version=record.version,
            ruleset=record.engine.ruleset,
            status=record.status,
            lines=get_layout(position.layout).lines,
            pieces=tuple((piece.point, piece.side) for piece in position.pieces),
            reserve=dict(position.reserve),
            player_ids=ids,
            player_names=names,
            turn=game.turn if running else None,
            last_move=last_move_shape(position),
            moves=tuple(game.history),
            legal=legal,
            deadline=record.clock.deadline_at if running else None,
            per_move_seconds=record.match.time_per_move_seconds,
            paused=record.clock.paused,
            score={side: totals.totals().get(ids[side], 0) for side in SIDES},
            game_number=record.index + 1,
            games=record.match.game_count,
            winner=record.winner,
            reason=None if record.is_active else record.status,
        )

    async def move(
        self, game_id: int, user_id: int, action: Action, *, expected_version: int
    ) -> Report:
        """Play ``action`` for ``user_id`` in ``game_id`` as the page showed it at
        ``expected_version``: the same checks as a move in the channel (``NotAPlayer``,
        ``NotYourTurn``, ``BadMove``, the clock's), and ``GameChanged`` if anything changed
        the game since."""
        return await self._play.move_in_game(
            game_id, user_id, action, expected_version=expected_version
        )

    async def final_board(self, game_id: int, *, viewer_id: int | None) -> BoardPicture | None:
        """The ended game's last position with how it ended, as its board messages in Discord
        draw it (from the viewer's side if they played); ``None`` while it is still played.
        Raises ``NoGameHere`` for an unknown game, ``GameDamaged`` for one that cannot be
        loaded."""
        record = await game_by_id(self._kit, game_id)
        if record.is_active:
            return None
        perspective = record.side_of(viewer_id) if viewer_id is not None else None
        return (await self._reports.view(record, perspective=perspective or "white")).image

    async def game_in_channel(self, place: Place) -> int | None:
        """The id of the channel's active game, or ``None``."""
        try:
            record = await self._kit.store.games.active(place.channel_id)
        except st.CorruptGame:
            return None
        if record is None or record.guild_id != place.guild_id:
            return None
        return record.id


def _shape(text: str, action: Action) -> MoveShape:
    def name(point: int | None) -> str | None:
        return None if point is None else POINT_NAMES[point]

    return MoveShape(text, name(action.origin), name(action.target), name(action.place))
