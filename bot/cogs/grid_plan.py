"""The click grid's plan: which points of the board a player may click at each step of building
an action (a piece, then its target, then in ludos perhaps a camp point to place on), laid out as
that player sees the board. Pure: it reads only the game's legal actions."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.jarmo import Action, Game, Point, Side, point_index

COLUMNS = "ABCDE"
SIZE = 5
LATER = "later"  # the extra button that plays a ludos step without placing
BACK = "back"  # the extra button that lets go of the chosen piece


class Stage(Enum):
    """What the player is choosing now."""

    PIECE = "piece"  # a piece to move (or a camp point to bring a piece in)
    TARGET = "target"  # where the chosen piece goes
    PLACE = "place"  # where the piece won back is placed (ludos), or "later"


class OffGrid(ValueError):
    """A click the current position does not offer: the grid it came from is out of date."""


@dataclass(frozen=True, slots=True)
class Picked:
    """What the player has chosen so far: nothing, a piece, or a piece and its target.

    Prints as ``""``, ``"B3"`` or ``"B3-A1"`` (for a custom id) and parses back."""

    origin: Point | None = None
    target: Point | None = None

    @property
    def stage(self) -> Stage:
        if self.origin is None:
            return Stage.PIECE
        return Stage.TARGET if self.target is None else Stage.PLACE

    @classmethod
    def parse(cls, text: str) -> Picked:
        """The choice a custom id carries; ``OffGrid`` for anything else."""
        try:
            names = [point_index(name) for name in text.split("-")] if text else []
        except ValueError:
            raise OffGrid(text) from None
        if len(names) > 2 or len(set(names)) != len(names):
            raise OffGrid(text)
        return cls(*names)

    def __str__(self) -> str:
        return "-".join(point_name(p) for p in (self.origin, self.target) if p is not None)


@dataclass(frozen=True, slots=True)
class Cell:
    """One button of the grid: a point, whose piece stands there, and whether it may be
    clicked now (``chosen``: the piece or target picked already)."""

    point: Point
    owner: Side | None
    enabled: bool
    chosen: bool = False

    @property
    def name(self) -> str:
        return point_name(self.point)


@dataclass(frozen=True, slots=True)
class GridPlan:
    """The grid for one player at one step: rows top first, as that player sees the board."""

    picked: Picked
    rows: tuple[tuple[Cell, ...], ...]
    can_place_later: bool  # at the place step: the step alone is legal too
    brings_pieces_in: bool  # at the piece step: some camp point takes a piece in

    @property
    def stage(self) -> Stage:
        return self.picked.stage


def point_name(point: Point) -> str:
    """``"C2"`` for the point index of C2."""
    column, row = divmod(point, SIZE)
    return f"{COLUMNS[column]}{row + 1}"


def layout(side: Side) -> tuple[tuple[Point, ...], ...]:
    """The board's points as ``side`` sees them, top row first: White looks from row 1 (row 5
    on top, A on the left), Black from row 5 (the board turned half round)."""
    rows = range(SIZE - 1, -1, -1) if side == "white" else range(SIZE)
    columns = range(SIZE) if side == "white" else range(SIZE - 1, -1, -1)
    return tuple(tuple(column * SIZE + row for column in columns) for row in rows)


def plan(game: Game, side: Side, picked: Picked = Picked()) -> GridPlan:
    """The grid ``side`` sees having chosen ``picked``; ``OffGrid`` if that choice no longer
    leads to a legal action."""
    actions = game.legal_actions()
    clickable = _clickable(actions, picked)
    if picked.origin is not None and not clickable and not _later(actions, picked):
        raise OffGrid(str(picked))
    chosen = {p for p in (picked.origin, picked.target) if p is not None}
    rows = tuple(
        tuple(
            Cell(point, _owner(game, point), point in clickable, point in chosen) for point in row
        )
        for row in layout(side)
    )
    brings_in = picked.origin is None and any(a.origin is None for a in actions)
    return GridPlan(picked, rows, _later(actions, picked), brings_in)


def click(game: Game, picked: Picked, clicked: str) -> Picked | Action:
    """What a click on point ``clicked`` (a name, or ``LATER``/``BACK``) means after
    ``picked``: a further choice to show, or the action to play. ``OffGrid`` if the current
    position does not offer it."""
    if clicked == BACK:
        return Picked()
    actions = set(game.legal_actions())
    if clicked == LATER:
        if not _later(actions, picked):
            raise OffGrid(clicked)
        assert picked.origin is not None and picked.target is not None  # _later checked it
        return Action(picked.origin, picked.target)
    try:
        point = point_index(clicked)
    except ValueError:
        raise OffGrid(clicked) from None
    if point not in _clickable(actions, picked):
        raise OffGrid(clicked)
    if picked.origin is None:
        if any(a.origin == point for a in actions):
            return Picked(point)
        return Action(place=point)
    if picked.target is None:
        step = (picked.origin, point)
        if any((a.origin, a.target) == step and a.place is not None for a in actions):
            return Picked(picked.origin, point)
        return Action(picked.origin, point)
    return Action(picked.origin, picked.target, point)


def _clickable(actions: list[Action] | set[Action], picked: Picked) -> set[Point]:
    """The points that lead on from ``picked``."""
    points: set[Point] = set()
    for action in actions:
        if picked.origin is None:
            lead = action.origin if action.origin is not None else action.place
        elif picked.target is None:
            lead = action.target if action.origin == picked.origin else None
        elif (action.origin, action.target) == (picked.origin, picked.target):
            lead = action.place
        else:
            lead = None
        if lead is not None:
            points.add(lead)
    return points


def _later(actions: list[Action] | set[Action], picked: Picked) -> bool:
    """At the place step (a step that could place), whether the step alone is legal too."""
    if picked.stage is not Stage.PLACE:
        return False
    step = (picked.origin, picked.target)
    could_place = any((a.origin, a.target) == step and a.place is not None for a in actions)
    return could_place and Action(picked.origin, picked.target) in actions


def _owner(game: Game, point: Point) -> Side | None:
    piece = game.piece_at(point_name(point))
    return piece.side if piece is not None else None
