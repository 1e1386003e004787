"""Why an action is refused: plain-words reasons for the player.

The move generator decides what is legal; these checks run only after a refusal, to say why,
so they cost nothing on the hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import (
    CAMP_ROW,
    EMPTY,
    GUARD,
    IN_ENEMY_CAMP,
    POINT_COUNT,
    POINT_NAMES,
    SIDE_NAMES,
    row_of,
    shuffle_forbidden,
)
from .errors import IllegalMove
from .rulesets import side_name

if TYPE_CHECKING:
    from .game import Game


def explain_refusal(game: Game, side: int, p: int, q: int, place: int, text: str) -> None:
    """Raise ``IllegalMove`` saying why an action that is not legal here is refused."""
    if game._stop is not None or not game._legal_tuple():
        raise IllegalMove(
            IllegalMove.GAME_OVER, "The game is over; no more moves can be played.", text
        )
    if p < 0:
        _check_place(game, side, place, text)
    else:
        _check_step(game, side, p, q, text)
        if place >= 0:
            _check_immediate_place(game, side, p, q, place, text)
    raise IllegalMove(IllegalMove.NOT_ALLOWED, "That action is not allowed in this position.", text)


def _check_step(game: Game, side: int, p: int, q: int, text: str) -> None:
    owner = game._owner[p]
    name_p, name_q = POINT_NAMES[p], POINT_NAMES[q]
    if owner == EMPTY:
        raise IllegalMove(IllegalMove.NO_PIECE, f"There is no piece on {name_p}.", text)
    if owner != side + 1:
        raise IllegalMove(
            IllegalMove.NOT_YOUR_PIECE,
            f"The piece on {name_p} is {side_name(SIDE_NAMES[owner - 1], game._rules.name)}'s, "
            "not yours.",
            text,
        )
    if IN_ENEMY_CAMP[side][p]:
        raise IllegalMove(
            IllegalMove.IN_ENEMY_CAMP,
            f"Your piece on {name_p} stands in the enemy camp and can never move again.",
            text,
        )
    if q not in game._layout.neighbours[p]:
        raise IllegalMove(
            IllegalMove.NO_LINE,
            f"No line joins {name_p} and {name_q} on the {game._layout.name} board. "
            f"{_options_from(game, p)}",
            text,
        )
    if game._rules.forward_only and not any(t[0] == q for t in game._targets[side][p]):
        raise IllegalMove(
            IllegalMove.BACKWARDS,
            f"In {game._rules.name}, pieces only move towards the enemy camp; "
            f"{name_p}-{name_q} goes backwards or sideways.",
            text,
        )
    if game._owner[q] == side + 1:
        raise IllegalMove(
            IllegalMove.OWN_PIECE_THERE, f"Your own piece is already on {name_q}.", text
        )
    if game._rules.no_shuffling and shuffle_forbidden(game._recent[side]) == p * POINT_COUNT + q:
        raise IllegalMove(
            IllegalMove.SHUFFLING,
            f"No shuffling: you have played {name_p}-{name_q} and back twice in a row; "
            "make a different move first.",
            text,
        )


def _options_from(game: Game, p: int) -> str:
    side = game._side
    dests = [POINT_NAMES[q] for q, _, _ in game._targets[side][p] if game._owner[q] != side + 1]
    if not dests:
        return f"The piece on {POINT_NAMES[p]} has no move right now."
    return f"From {POINT_NAMES[p]} you can go to {', '.join(dests)}."


def _check_immediate_place(game: Game, side: int, p: int, q: int, place: int, text: str) -> None:
    if not game._rules.guards:
        raise IllegalMove(
            IllegalMove.BAD_PLACE,
            f"Only ludos lets you place a piece together with a step; play "
            f"{POINT_NAMES[p]}-{POINT_NAMES[q]} alone.",
            text,
        )
    recovers = game._kind[p] == GUARD and IN_ENEMY_CAMP[side][q] and game._captured[side] > 0
    if not recovers:
        raise IllegalMove(
            IllegalMove.BAD_PLACE,
            "That step recovers no piece (only a guard entering the enemy camp while "
            "you have a captured piece does), so there is nothing to place.",
            text,
        )
    _check_place_point(game, side, place, text)


def _check_place_point(game: Game, side: int, r: int, text: str) -> None:
    if row_of(r) != CAMP_ROW[side]:
        raise IllegalMove(
            IllegalMove.BAD_PLACE,
            f"{POINT_NAMES[r]} is not in your camp; pieces come back on row {CAMP_ROW[side] + 1}.",
            text,
        )
    if game._owner[r] != EMPTY:
        raise IllegalMove(
            IllegalMove.BAD_PLACE,
            f"{POINT_NAMES[r]} is not empty; choose an empty point of your camp.",
            text,
        )


def _check_place(game: Game, side: int, r: int, text: str) -> None:
    if game._rules.guards:
        if not game._reserve[side]:
            raise IllegalMove(
                IllegalMove.NO_REDEPLOY,
                "You have no piece in reserve to place (a guard that reaches the "
                "enemy camp recovers one of your captured pieces).",
                text,
            )
    else:
        _check_redeploy(game, side, text)
    _check_place_point(game, side, r, text)


def _check_redeploy(game: Game, side: int, text: str) -> None:
    if not game._captured[side]:
        raise IllegalMove(IllegalMove.NO_REDEPLOY, "You have no captured piece to redeploy.", text)
    if not game._can_redeploy(side):
        raise IllegalMove(
            IllegalMove.NO_REDEPLOY,
            "To redeploy you need a marked piece (one that has captured) standing "
            "in the enemy camp.",
            text,
        )
    if not game._free_camp_points(side):
        raise IllegalMove(
            IllegalMove.NO_REDEPLOY,
            "Your camp has no empty point, so you cannot redeploy this turn.",
            text,
        )
