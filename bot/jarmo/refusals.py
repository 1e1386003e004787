"""Why an action is refused: plain-words reasons for the player.

The move generator decides what is legal; these checks run only after a refusal, to say why,
so they cost nothing on the hot path. They read the game through its public queries only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import CAMP_ROW, GUARD, IN_ENEMY_CAMP, POINT_NAMES, Point, row_of
from .errors import IllegalMove, Problem
from .layouts import DEFAULT_LAYOUT
from .rulesets import side_name

if TYPE_CHECKING:
    from .game import Game
    from .notation import Action


def explain_refusal(game: Game, action: Action, text: str) -> None:
    """Raise ``IllegalMove`` saying why ``action`` (typed as ``text``) is not legal here."""
    if game.over:
        raise IllegalMove(
            "The game is over; no more moves can be played.",
            text,
            Problem.GAME_OVER,
        )
    if action.origin is None or action.target is None:
        if action.place is not None:
            _check_place(game, action.place, text)
    else:
        _check_step(game, action.origin, action.target, text)
        if action.place is not None:
            _check_immediate_place(game, action.origin, action.target, action.place, text)
    raise IllegalMove(
        "That action is not allowed in this position.",
        text,
        Problem.NOT_ALLOWED,
    )


def _check_step(game: Game, p: Point, q: Point, text: str) -> None:
    name_p, name_q = POINT_NAMES[p], POINT_NAMES[q]
    piece = game.piece_at(name_p)
    side = game.turn_index
    if piece is None:
        raise IllegalMove(
            f"There is no piece on {name_p}.",
            text,
            Problem.NO_PIECE,
            point=name_p,
        )
    if piece.side != game.turn:
        raise IllegalMove(
            f"The piece on {name_p} is {side_name(piece.side, game.ruleset)}'s, not yours.",
            text,
            Problem.NOT_YOUR_PIECE,
            point=name_p,
            owner=piece.side,
            ruleset=game.ruleset,
        )
    if IN_ENEMY_CAMP[side][p]:
        raise IllegalMove(
            f"Your piece on {name_p} stands in the enemy camp and can never move again.",
            text,
            Problem.IN_ENEMY_CAMP,
            point=name_p,
        )
    if q not in game.layout.neighbours[p]:
        options = _options_from(game, p)
        layout = game.layout.name
        board = "published board" if layout == DEFAULT_LAYOUT else f"{layout} board"
        raise IllegalMove(
            f"No line joins {name_p} and {name_q} on the {board}. {_options_text(name_p, options)}",
            text,
            Problem.NO_LINE,
            origin=name_p,
            target=name_q,
            layout=layout,
            options=", ".join(options),
        )
    if q not in game.targets(side)[p]:
        raise IllegalMove(
            f"In {game.ruleset}, pieces never step back, away from the enemy camp; "
            f"{name_p}-{name_q} goes backwards.",
            text,
            Problem.BACKWARDS,
            origin=name_p,
            target=name_q,
            ruleset=game.ruleset,
        )
    target = game.piece_at(name_q)
    if target is not None and target.side == game.turn:
        raise IllegalMove(
            f"Your own piece is already on {name_q}.",
            text,
            Problem.OWN_PIECE_THERE,
            point=name_q,
        )
    if game.would_shuffle(p, q):
        raise IllegalMove(
            f"No shuffling: you have played {name_p}-{name_q} and back twice in a row; "
            "make a different move first.",
            text,
            Problem.SHUFFLING,
            origin=name_p,
            target=name_q,
        )


def _options_from(game: Game, p: Point) -> list[str]:
    mine = game.turn_index + 1
    owners = game.owners
    return [POINT_NAMES[q] for q in game.targets(game.turn_index)[p] if owners[q] != mine]


def _options_text(name: str, options: list[str]) -> str:
    if not options:
        return f"The piece on {name} has no move right now."
    return f"From {name} you can go to {', '.join(options)}."


def _check_immediate_place(game: Game, p: Point, q: Point, place: Point, text: str) -> None:
    if not game.rules.guards:
        raise IllegalMove(
            f"Only ludos lets you place a piece together with a step; play "
            f"{POINT_NAMES[p]}-{POINT_NAMES[q]} alone.",
            text,
            Problem.PLACE_NEEDS_LUDOS,
            origin=POINT_NAMES[p],
            target=POINT_NAMES[q],
        )
    side = game.turn_index
    recovers = game.kinds[p] == GUARD and IN_ENEMY_CAMP[side][q] and game.captured(game.turn) > 0
    if not recovers:
        raise IllegalMove(
            "That step recovers no piece (only a guard entering the enemy camp while "
            "you have a captured piece does), so there is nothing to place.",
            text,
            Problem.NOTHING_RECOVERED,
        )
    _check_place_point(game, place, text)


def _check_place_point(game: Game, r: Point, text: str) -> None:
    camp_row = CAMP_ROW[game.turn_index]
    if row_of(r) != camp_row:
        raise IllegalMove(
            f"{POINT_NAMES[r]} is not in your camp; pieces come back on row {camp_row + 1}.",
            text,
            Problem.NOT_IN_CAMP,
            point=POINT_NAMES[r],
            row=str(camp_row + 1),
        )
    if game.piece_at(POINT_NAMES[r]) is not None:
        raise IllegalMove(
            f"{POINT_NAMES[r]} is not empty; choose an empty point of your camp.",
            text,
            Problem.POINT_TAKEN,
            point=POINT_NAMES[r],
        )


def _check_place(game: Game, r: Point, text: str) -> None:
    if game.rules.guards:
        if not game.reserve(game.turn):
            raise IllegalMove(
                "You have no piece in reserve to place (a guard that reaches the "
                "enemy camp recovers one of your captured pieces).",
                text,
                Problem.NO_RESERVE,
            )
    else:
        _check_redeploy(game, text)
    _check_place_point(game, r, text)


def _check_redeploy(game: Game, text: str) -> None:
    if not game.captured(game.turn):
        raise IllegalMove(
            "You have no captured piece to redeploy.",
            text,
            Problem.NO_CAPTURED,
        )
    if not game.can_redeploy():
        raise IllegalMove(
            "To redeploy you need a marked piece (one that has captured) standing "
            "in the enemy camp.",
            text,
            Problem.NO_MARKED_PIECE,
        )
    if not game.free_camp_points():
        raise IllegalMove(
            "Your camp has no empty point, so you cannot redeploy this turn.",
            text,
            Problem.CAMP_FULL,
        )
