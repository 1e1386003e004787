"""A watched game as the page reads it (the GAME object of the live board's protocol), the
JSON bodies the pages post, and the refusals the pages read as codes. Ids are strings:
JavaScript numbers lose 64-bit ids."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from bot.jarmo.position import Side
from bot.render._theme import RGB, theme_for
from bot.service.watching import BOARD_POINTS, CAMPS, SIDES, MoveShape, WatchedGame


def json_refusal(kind: type[web.HTTPError], code: str) -> web.HTTPError:
    """An HTTP refusal whose body is ``{"code": code}``, for the page to put into words."""
    return kind(text=json.dumps({"code": code}), content_type="application/json")


async def json_object(request: web.Request) -> dict[str, Any] | None:
    """The request's body, if it is a JSON object."""
    try:
        body = await request.json()
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def iso_time(moment: datetime | None) -> str | None:
    """``moment`` as the page reads times: ISO 8601 in UTC, to the second."""
    return None if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def board_json(lines: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """The board the page draws: its 25 points and ``lines``."""
    return {
        "points": [{"name": p.name, "x": p.x, "y": p.y} for p in BOARD_POINTS],
        "lines": [list(line) for line in lines],
    }


def camps_json() -> dict[str, list[str]]:
    """Each side's camp, as the page marks it."""
    return {side: list(CAMPS[side]) for side in SIDES}


def move_json(shape: MoveShape | None) -> dict[str, str | None] | None:
    """An action as the page draws it (``None``: none)."""
    return None if shape is None else _move(shape)


def _move(shape: MoveShape) -> dict[str, str | None]:
    return {"text": shape.text, "from": shape.origin, "to": shape.target, "place": shape.place}


def colors(ruleset: str) -> dict[str, str]:
    """The board's colours, the same as the pictures the bot posts."""
    theme = theme_for(ruleset)
    return {
        "background": _hex(theme.board),
        "line": _hex(theme.line),
        "white": _hex(theme.piece_fill["white"]),
        "black": _hex(theme.piece_fill["black"]),
        "last_move": _hex(theme.last_move),
        "camp_white": _hex(theme.camp["white"]),
        "camp_black": _hex(theme.camp["black"]),
    }


def game_json(game: WatchedGame, *, you: Side | None, watchers: int) -> dict[str, Any]:
    """The GAME object for a viewer playing ``you`` (``None``: a spectator)."""
    return {
        "id": str(game.game_id),
        "version": game.version,
        "ruleset": game.ruleset,
        "status": game.status,
        "board": board_json(game.lines),
        "colors": colors(game.ruleset),
        "pieces": [{"point": point, "side": side} for point, side in game.pieces],
        "reserve": dict(game.reserve),
        "camps": camps_json(),
        "players": {
            side: {"id": str(game.player_ids[side]), "name": game.player_names[side]}
            for side in SIDES
        },
        "you": you,
        "turn": game.turn,
        "last_move": move_json(game.last_move),
        "moves": list(game.moves),
        "legal": [_move(m) for m in game.legal] if you is not None and you == game.turn else [],
        "clock": {
            "deadline": iso_time(game.deadline),
            "per_move_seconds": game.per_move_seconds,
            "paused": game.paused,
        },
        "score": {
            "white": game.score["white"],
            "black": game.score["black"],
            "game": game.game_number,
            "games": game.games,
        },
        "result": None if game.reason is None else {"winner": game.winner, "reason": game.reason},
        "watchers": watchers,
    }
