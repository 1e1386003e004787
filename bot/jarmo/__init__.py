"""The rules of Jarmo as a pure library: no I/O, no Discord, nothing from the rest of the bot."""

from .board import POINT_NAMES, Point, point_index
from .codes import CAPTURE, ActionCode
from .errors import IllegalMove, JarmoError, NotationError
from .game import DEFAULT_MAX_PLIES, PIECES_PER_SIDE, Game
from .layouts import DEFAULT_LAYOUT, LAYOUTS, Layout, get_layout, register_layout
from .match import Match
from .notation import Action, parse_point
from .position import (
    SIDES,
    LastAction,
    Outcome,
    Piece,
    PieceKind,
    Position,
    Side,
    Termination,
    other_side,
)
from .rulesets import DEFAULT_RULESET, RULESETS, Ruleset, get_ruleset, side_name

__all__ = [
    "CAPTURE",
    "DEFAULT_LAYOUT",
    "DEFAULT_MAX_PLIES",
    "DEFAULT_RULESET",
    "LAYOUTS",
    "PIECES_PER_SIDE",
    "POINT_NAMES",
    "RULESETS",
    "SIDES",
    "Action",
    "ActionCode",
    "Game",
    "IllegalMove",
    "JarmoError",
    "LastAction",
    "Layout",
    "Match",
    "NotationError",
    "Outcome",
    "Piece",
    "PieceKind",
    "Point",
    "Position",
    "Ruleset",
    "Side",
    "Termination",
    "get_layout",
    "get_ruleset",
    "other_side",
    "parse_point",
    "point_index",
    "register_layout",
    "side_name",
]
